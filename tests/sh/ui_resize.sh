#!/bin/sh
# Every resize re-lays out at once: stacked at 80x24 with all panes, side by side at 200x60 (the
# plot taking half), a "terminal too small" notice at 30x8 (minimum 60x16), and back; overlays
# survive a resize.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
# written against the v4.1 round alone
one_round v4.1

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

# edges COLS: "AXIS LABELS HINT" of the screen: the length of the plot's x axis line, the last
# word of its tick labels and where it ends, and how far from the right edge "? help" ends
edges() {
	# the axis line: "0.0 +--" or, where no y tick falls on it, "    ++--" (theta's line is not it)
	awk -v cols="$1" '/^ *[0-9.]* *\+\+?-/ && !/theta/ && !axis { axis = length($0) }
		axis && !labels && /^ +[0-9]+ +[0-9]+/ { sub(/ +$/, ""); labels = $NF "@" length($0) }
		/q quit$/ { hint = index($0, "? help") == 2 ? "left" : cols - length($0) }
		END { print (axis ? axis : "none"), (labels ? labels : "none"), (hint != "" ? hint : "none") }' "$UI_SCREEN"
}

# 31 rows: the selected row's label fits whole in the plot there (else the last line names the
# selection instead of the key hint), so that both sizes show the key hint
ui_start 100 31 ""
ui_wait "q quit"
e100=$(edges 100)
hint=${e100##* }

# Laid out for 80 columns, not for the 100 it started with (tmux cuts what was drawn for those
# at 80) nor for fewer: the x axis reaches the last column, its last tick label 4096 ends there
# whole, and the key hint keeps the margin from the right edge it had at 100 columns. Checked first,
# so that the checks below see the new frame, not the old one cut by tmux.
tm resize-window -t gs -x 80 -y 24
w=0
while [ $w -lt 50 ]; do
	ui_cap
	e80=$(edges 80)
	[ "$e80" = "80 4096@80 $hint" ] && break
	sleep 0.1
	w=$((w + 1))
done
if [ "$hint" != none ] && [ "$e100" = "100 4096@100 $hint" ] && [ "$e80" = "80 4096@80 $hint" ]; then
	ok "80x24: the layout fits 80 columns exactly (axis, tick labels, status hint: $e80)"
else
	nok "80x24: the layout fits 80 columns exactly" "at 100: $e100; at 80: $e80 (axis, last tick label@end, hint margin)" "$(cat "$UI_SCREEN")"
fi
ui_see "80x24: header" "[BERT]"
ui_see "80x24: status bar with the reference mode" "ref: per family"
ui_see "80x24: cluster line" "clusters: 1: "
ui_see "80x24: rows shown / total" "29/29 rows"
ui_see "80x24: table header" "system"
# the split gives the plot what the table can spare: the table keeps six rows
rows=$(grep -cE '^ +[0-9]+ [A-Za-z0-9]' "$UI_SCREEN")
if [ "$rows" -eq 6 ]; then ok "80x24: six table rows in the split ($rows)"; else nok "80x24: six table rows in the split" "$(cat "$UI_SCREEN")"; fi
prow=$(sed -n '2,/^ *# /p' "$UI_SCREEN" | sed '$d' | wc -l | tr -d ' ')
if [ "$prow" -eq 12 ]; then ok "80x24: the plot gets the other 12 rows"; else nok "80x24: the plot gets the other 12 rows" "$prow" "$(cat "$UI_SCREEN")"; fi
ui_keys G
ui_see "80x24: G scrolls the table to the last row" " 29 "

tm resize-window -t gs -x 200 -y 60
ui_see "200x60: side by side, the plot has its title" "vs accelerators (log2 N)"
line=$(ui_line 'vs accelerators')
case "$line" in *system*) ok "200x60: the table sits beside the plot" ;; *) nok "200x60: table beside the plot" "$line" ;; esac
ui_see "200x60: every row fits" " 29 "
# from 160 columns the plot takes half: the table's border is at column 101 or past it
bar=$(ui_line 'vs accelerators' | awk '{ print index($0, "|") }')
if [ "${bar:-0}" -ge 101 ]; then ok "200x60: the plot takes half the width (border at $bar)"
else nok "200x60: the plot takes half the width" "border at ${bar:-none}"; fi

tm resize-window -t gs -x 30 -y 8
ui_see "30x8: terminal too small notice" "terminal too small"
ui_see "30x8: it says the minimum" "needs 60x16"
tm resize-window -t gs -x 59 -y 30
ui_see "59 columns is too small" "terminal too small"
tm resize-window -t gs -x 60 -y 16
ui_see "60x16 is enough" "[BERT]"
ui_gone "60x16: no notice" "too small"

tm resize-window -t gs -x 100 -y 30
ui_see "back to 100x30" "[BERT]"
ui_gone "the notice is gone" "too small"
ui_keys '?'
ui_wait "this help"
tm resize-window -t gs -x 80 -y 24
ui_see "an overlay survives a resize" "this help"
tm resize-window -t gs -x 10 -y 3
ui_see "10x3: still the notice" "too small"
tm resize-window -t gs -x 1 -y 1
sleep 0.2
tm resize-window -t gs -x 100 -y 30
ui_see "1x1 and back: the overlay is still there" "this help"
ui_keys q
ui_gone "q closes it" "this help"
i=0
while [ $i -lt 30 ]; do
	tm resize-window -t gs -x $((20 + i * 7 % 180)) -y $((5 + i * 3 % 55))
	i=$((i + 1))
done
tm resize-window -t gs -x 100 -y 30
ui_see "30 resizes in a row, then a normal screen" "[BERT]"
ui_keys q
ui_exits "q exits 0"
ui_sane "the terminal is usable afterwards"
ui_stop

# beyond what the rasterizer draws (400x200) the plot keeps its largest size
ui_start 900 260 ""
ui_see "900x260: the plot is still drawn (its legend)" "x: N (log2)"
ui_stop
