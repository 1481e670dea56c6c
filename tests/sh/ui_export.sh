#!/bin/sh
# e writes the ranked table (CSV) and the plot (text) under round-workload-time names, says where
# on the status bar, never replaces a file, and reports a folder it cannot write to.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

ui_start 100 30 ""
ui_wait "[BERT]"
ui_keys e
ui_see "e: the status bar says where" "exported ./gpuscale-v4.1-bert-"
csv=$(ls "$TMP"/gpuscale-v4.1-bert-*.csv 2>/dev/null | head -n 1)
txt=${csv%.csv}.txt
if [ -n "$csv" ] && [ -s "$csv" ]; then ok "the CSV file exists"; else nok "the CSV file exists" "$(ls -la "$TMP")"; fi
if [ -n "$csv" ] && [ -s "$txt" ]; then ok "the plot file exists beside it"; else nok "the plot file exists" "$(ls -la "$TMP")"; fi
case "$(basename "$csv")" in
gpuscale-v4.1-bert-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9].csv) ok "named after round, workload and time" ;;
*) nok "named after round, workload and time" "$csv" ;;
esac
rows=$(($(wc -l <"$csv") - 1))
if [ "$rows" -eq 29 ]; then ok "the CSV has every shown row"; else nok "the CSV has every shown row" "$rows rows"; fi
contains "the CSV names the reference" "$csv" "7920T_2xA5000_hdd"
contains "the plot file has the axis" "$txt" "+---"
contains "the plot file says what it shows" "$txt" "# gpuscale v4.1 bert"
ls -a "$TMP" | grep -q '^\.gpuscale-export' && nok "no temporary file left" "$(ls -a "$TMP")" || ok "no temporary file left"

# a second export in the same second gets another name; the first files stay as they were
sum1=$(cksum <"$csv")
ui_keys f j Space Enter
ui_wait "filter: "
ui_keys e e
ui_wait "exported"
sleep 0.3
n=$(ls "$TMP"/gpuscale-v4.1-bert-*.csv | wc -l | tr -d ' ')
if [ "$n" -eq 3 ]; then ok "three exports, three CSV files"; else nok "three exports, three CSV files" "$(ls "$TMP")"; fi
if [ "$(cksum <"$csv")" = "$sum1" ]; then ok "an existing export is never overwritten"; else nok "an existing export is never overwritten"; fi
ui_keys q
ui_exit_code >/dev/null

# a folder that cannot be written (removed under the running program: fails even as root)
mkdir "$TMP/gone"
UI_CWD="$TMP/gone"
ui_start 100 30 ""
unset UI_CWD
ui_wait "[BERT]"
rmdir "$TMP/gone"
ui_keys e
ui_see "export into a folder that is gone: an error on the status bar" "export failed"
ui_keys q
code=$(ui_exit_code)
if [ "$code" = 0 ]; then ok "no crash: q exits 0 after the failed export"; else nok "q exits 0 after a failed export" "exit: $code"; fi
ui_stop
