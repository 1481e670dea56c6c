#!/bin/sh
# The explorer starts on the bundled v4.1 data with BERT in family mode (each family against its
# own reference, the groups' brackets on the status line), the plot and the table; q, Ctrl-C and SIGTERM all end it with the terminal restored (Ctrl-C and SIGTERM as
# those signals would: 130, 143; see ui_signals.sh for every signal); it runs without colour
# (NO_COLOR, TERM=vt100) and on the other usual terminal types.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
# written against the v4.1 round alone
one_round v4.1

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

ui_start 100 30 ""
ui_see "start: BERT is the active tab" "[BERT]"
ui_see "start: family mode in the status bar" "ref: per family (paper rule in each)"
lacks "start: no pooled reference" "$UI_SCREEN" "ref (paper)"
# the first row, 7920T_2xA5000_ssd (N=2, E' 1.07 against the slower hdd system, no RTX A5000
# row beyond N=2), is selected: its family first, then the others by name (A100 PCIe: 16xR750
# at N=32, E' 0.987, the largest N of the family), 7 families in all
ui_see "start: the status line lists the groups, the selected row's first" \
	"theta 0.8: RTX A5000 2+, A100 PCIe 32+, +5 more |"
if grep -Eq '^ *\+\+?-+\+' "$UI_SCREEN"; then ok "start: plot axis drawn"
else nok "start: plot axis drawn" "$(cat "$UI_SCREEN")"; fi
ui_see "start: table header drawn" "system"
ui_see "start: rows shown / total" "29/29 rows"
ui_see "start: cluster line" "clusters: 1: "
ui_keys q
ui_exits "q exits 0"
ui_sane "q leaves the terminal in cooked mode"

ui_start 100 30 ""
ui_wait "[BERT]"
ui_keys '?'
ui_see "help overlay opens" "this help"
ui_keys q
ui_gone "q closes the overlay first" "this help"
ui_see "and the explorer is still running" "[BERT]"
ui_keys C-c
ui_exits "Ctrl-C ends it by SIGINT (130)" 130
ui_sane "Ctrl-C leaves the terminal in cooked mode"

ui_start 100 30 ""
ui_wait "[BERT]"
kill -TERM "$(cat "$TMP/pid")"
ui_exits "SIGTERM ends it by the signal (143)" 143
ui_sane "SIGTERM leaves the terminal in cooked mode"

for env in "NO_COLOR=1" "TERM=vt100" "TERM=linux" "TERM=screen" "TERM=screen-256color" "TERM=tmux-256color" "LANG=C LC_ALL=C"; do
	ui_start 80 24 "$env"
	if ui_wait "ref: per family" && ui_wait "[BERT]"; then
		ui_keys j j Tab
		if ui_wait "[Llama2"; then ok "$env: draws and takes keys"
		else nok "$env: draws and takes keys" "$(cat "$UI_SCREEN")"; fi
	else
		nok "$env: draws and takes keys" "$(cat "$UI_SCREEN")"
	fi
	ui_keys q
	ui_exits "$env: q exits 0"
done

ui_start 100 30 "" --no-such-option
code=$(ui_exit_code)
if [ "$code" = 2 ]; then ok "a usage error exits 2 before the screen starts"; else nok "usage error exits 2" "exit: $code"; fi
ui_stop
