#!/bin/sh
# Mouse: a click on a table row or on a plot point selects it (shown by the detail overlay);
# M turns the mouse off; it starts off when SSH_CONNECTION is set. Clicks are sent as the SGR
# mouse sequences an xterm would send.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
# written against the v4.1 round alone
one_round v4.1

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

# click LINE COL (1-based, as in the captured screen)
click() { ui_keys -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' "$2" "$1" "$2" "$1")"; }

ui_start 100 30 ""
# the status line is drawn last: the table above it is on the screen by then
ui_wait "? help"
ui_settle
ln=$(grep -nE '^ +5 [^+|]' "$UI_SCREEN" | head -n 1 | cut -d: -f1)
name=$(sed -n "${ln}p" "$UI_SCREEN" | awk '{print $2}')
[ -n "$ln" ] && [ -n "$name" ] && ok "table row 5 is on the screen ($name)" || nok "table row 5 is on the screen" "$(cat "$UI_SCREEN")"
click "$ln" 20
ui_keys Enter
# The first input of a fresh program under a loaded machine was once seen to select nothing
# (no repeat found in hundreds of tries): that case is said in a comment and clicked once more,
# so a click that never selects still fails.
if ! ui_wait "detail: $name"; then
	echo "# first click on line $ln did not select $name; screen:"
	sed 's/^/#   /' "$UI_SCREEN"
	ui_keys Escape
	ui_wait_gone "detail: " 2
	click "$ln" 20
	ui_keys Enter
fi
ui_see "a click on table row 5 selects it" "detail: $name"
ui_keys q
ui_wait_gone "detail: "
# the reference's R glyph in the plot, above the table
pos=$(sed -n '2,/^ *# /p' "$UI_SCREEN" | grep -n 'R' | grep -v 'R ref' | head -n 1)
pl=$(( $(echo "$pos" | cut -d: -f1) + 1 ))
pc=$(sed -n "${pl}p" "$UI_SCREEN" | awk '{ print index($0, "R") }')
click "$pl" "$pc"
ui_keys Enter
ui_see "a click on the R in the plot selects the reference" "detail: 7920T_2xA5000_hdd"
ui_keys q
ui_wait_gone "detail: "
click "$pl" "$((pc + 1))"
ui_keys Enter
# hdd and ssd share that cell: a second click there moves on to the other one
ui_see "a click one cell off still finds a point of that cell" "detail: 7920T_2xA5000_"
ui_keys q

# the wheel moves the selection three rows, and scrolls the help and the detail; a click
# closes the help and the detail (xterm SGR codes: 64 wheel up, 65 wheel down)
wheel() { ui_keys -l "$(printf '\033[<%d;%d;%dM' "$1" 20 "$ln")"; }
row_name() { sed -n "$((ln - 5 + $1))p" "$UI_SCREEN" | awk '{print $2}'; }
ui_wait_gone "detail: "
ui_keys g
# the plot clicks may have scrolled the table: wait until row 1 is back on its line
i=0
while [ $i -lt 50 ]; do ui_cap; sed -n "$((ln - 4))p" "$UI_SCREEN" | grep -Eq '^ +1 ' && break; sleep 0.1; i=$((i + 1)); done
name4=$(row_name 4) name1=$(row_name 1)
[ -n "$name4" ] && [ -n "$name1" ] && [ "$name4" != "$name1" ] && ok "rows 1 and 4 read off the table ($name1, $name4)" || nok "rows 1 and 4 read off the table" "$(cat "$UI_SCREEN")"
wheel 65
ui_keys Enter
ui_see "the wheel down moves the selection three rows" "detail: $name4"
ui_keys q
ui_wait_gone "detail: "
wheel 64
ui_keys Enter
ui_see "the wheel up moves it back" "detail: $name1"
click 5 20
ui_gone "a click in the detail closes it" "detail: "
ui_keys F1
ui_wait "this help"
help_top=$(sed -n 3p "$UI_SCREEN")
wheel 65
i=0
while [ $i -lt 50 ]; do ui_cap; [ "$(sed -n 3p "$UI_SCREEN")" != "$help_top" ] && break; sleep 0.1; i=$((i + 1)); done
[ -n "$help_top" ] && [ "$(sed -n 3p "$UI_SCREEN")" != "$help_top" ] && ok "the wheel scrolls the help" ||
	nok "the wheel scrolls the help" "$(cat "$UI_SCREEN")"
wheel 64
i=0
while [ $i -lt 50 ]; do ui_cap; [ "$(sed -n 3p "$UI_SCREEN")" = "$help_top" ] && break; sleep 0.1; i=$((i + 1)); done
[ "$(sed -n 3p "$UI_SCREEN")" = "$help_top" ] && ok "the wheel scrolls the help back" ||
	nok "the wheel scrolls the help back" "$(cat "$UI_SCREEN")"
wheel 65 # once more: the selection would now be three rows down, were it the wheel's target
click 5 20
ui_gone "a click in the help closes it" "this help"
ui_keys Enter
ui_see "under the help the wheel left the selection alone" "detail: $name1"
wheel 65
ui_see "in the detail the wheel leaves its system, and the selection, alone" "detail: $name1"
ui_keys q
ui_wait_gone "detail: "
ui_keys f
ui_wait "family filter"
wheel 65
ui_keys Space
ui_wait "[x] "
second=$(grep -E '\[[ x]\] ' "$UI_SCREEN" | sed -n 2p)
case $second in
*"[x] "*) ok "in the family menu the wheel moves to the next family" ;;
*) nok "in the family menu the wheel moves to the next family" "$(cat "$UI_SCREEN")" ;;
esac
ui_keys Escape
ui_wait_gone "family filter"

# a click on a column heading sorts by it; a second click reverses
hl=$(grep -nE '^ *# ' "$UI_SCREEN" | head -n 1 | cut -d: -f1)
hc=$(sed -n "${hl}p" "$UI_SCREEN" | awk '{ print index($0, " min") + 3 }')
click "$hl" "$hc"
ui_see "a click on the min heading sorts by minutes" "sorted by minutes (ascending)"
ui_see "the heading carries the mark" "min ^"
click "$hl" "$hc"
ui_see "a second click reverses" "sorted by minutes (descending)"
ui_see "the mark turns" "min v"
ui_keys s

ui_keys g M
ui_see "M: mouse off" "mouse off"
click "$ln" 20
ui_keys Enter
if ui_wait "detail: "; then lacks "with the mouse off a click does nothing" "$UI_SCREEN" "detail: $name"
else nok "with the mouse off a click does nothing" "no detail opened" "$(cat "$UI_SCREEN")"; fi
ui_keys q q
ui_exit_code >/dev/null

ui_start 100 30 "SSH_CONNECTION='10.0.0.1 22 10.0.0.2 22'"
ui_wait "[BERT]"
click "$ln" 20
ui_keys Enter
if ui_wait "detail: "; then lacks "over SSH the mouse starts off" "$UI_SCREEN" "detail: $name"
else nok "over SSH the mouse starts off" "no detail opened" "$(cat "$UI_SCREEN")"; fi
ui_keys q q
ui_exits "q exits 0"
ui_stop
