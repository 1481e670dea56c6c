#!/bin/sh
# Several rounds loaded: [ and ] switch between them keeping the workload; a results CSV of
# one's own (few columns, a bad row) opens with the load warning on the status bar.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

ui_start 100 30 "" "'$GS_TOP/data/mlperf_training_v4.1.csv'" "'$GS_TOP/data/mlperf_training_v4.0.csv'"
ui_see "two rounds: the header counts them" "/2)"
r1=$(grep -o 'v4\.[01] ([12]/2)' "$UI_SCREEN" | head -n 1)
ui_keys Tab
ui_wait "[Llama2"
ui_keys ']'
ui_wait_gone "$r1"
r2=$(grep -o 'v4\.[01] ([12]/2)' "$UI_SCREEN" | head -n 1)
if [ -n "$r2" ] && [ "$r2" != "$r1" ]; then ok "]: the other round ($r1 -> $r2)"; else nok "]: the other round" "'$r1' -> '$r2'"; fi
ui_see "the workload is kept" "[Llama2-LoRA]"
ui_see "the status bar follows" " ${r2%% *} Llama2-LoRA "
ui_keys '['
ui_see "[: back" "$r1"
ui_keys q
ui_exit_code >/dev/null

ui_start 100 30 ""
ui_wait "[BERT]"
ui_keys ']'
ui_see "one round: ] says so" "only one round loaded"
ui_keys q
ui_exit_code >/dev/null

printf 'round,system,benchmark,accelerators,minutes\nmine,a,job,1,100\nmine,b,job,2,55\nmine,c,job,4,30\nmine,d,job,x,4\n' >"$TMP/own.csv"
ui_start 100 30 "" "'$TMP/own.csv'"
ui_see "own CSV: the load warning is on the status bar" "load warning"
ui_see "it names file, line and column" "own.csv:5:"
ui_see "own CSV: reference by the paper rule" "ref (paper) a N=1 100.00 min"
ui_keys j
ui_see "own CSV: three rows (the message goes with the next key)" "3/3 rows"
ui_keys q
ui_exits "q exits 0"
ui_stop
