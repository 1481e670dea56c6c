#!/bin/sh
# The selection never hides a mark of the plot: v4.1 BERT on H100 SXM at 80x24 and 200x60 (and
# 80x24 under NO_COLOR), every row selected in turn; the counts ('7' = seven points in a cell)
# and the reference's R stay where they are, and the selected point's cell is drawn reversed
# (an attribute, so it shows without colour too). Table-only zoom after j (j z z) at 80x24 and
# 200x60 shows rank 1 on its first line and the selection on rank 2.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
one_round v4.1

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

E=$(printf '\033')
# marks FILE: the plot's count and reference cells, one "row col mark" a line: tokens of one
# character among 2-9 # R in the plot rows (from below the tab bar to the x axis line, cut to
# the x axis line's width, so a table beside the plot is left out)
marks() {
	awk '{ rows[NR] = $0 } /^ *\+\+?-/ { ax = NR; w = length($0); exit }
		END {
			for (r = 2; r < ax; r++) {
				s = substr(rows[r], 1, w); n = length(s)
				for (c = 1; c <= n; c++) {
					ch = substr(s, c, 1)
					if (ch !~ /[2-9#R]/) continue
					l = c > 1 ? substr(s, c - 1, 1) : " "; rr = c < n ? substr(s, c + 1, 1) : " "
					if (l ~ /[ |:-]/ && rr ~ /[ |:-]/) print r, c, ch
				}
			}
		}' "$1"
}

# sweep SIZE ENV MARK DOWN: at SIZE, every row selected in turn keeps the marks of the first
# screen; after DOWN presses of j the cell showing MARK is reversed
sweep() {
	cols=${1%x*} rows=${1#*x}
	ui_start "$cols" "$rows" "$2" --round v4.1 -w bert -f "'H100 SXM'"
	ui_wait "H100 SXM 16..<48" || true
	ui_settle
	marks "$UI_SCREEN" >"$TMP/m0"
	if grep -q " $3\$" "$TMP/m0"; then ok "$1 $2: the plot shows a '$3'"
	else nok "$1 $2: the plot shows a '$3'" "$(cat "$UI_SCREEN")"; fi
	bad=""
	i=1
	while [ $i -le 14 ]; do
		ui_keys j
		sleep 0.1
		ui_settle
		marks "$UI_SCREEN" >"$TMP/m1"
		cmp -s "$TMP/m0" "$TMP/m1" || bad="$bad $i"
		if [ $i -eq "$4" ]; then
			tm capture-pane -e -p -t gs >"$TMP/sgr" 2>/dev/null
			if grep -q "${E}\[\([0-9]*;\)*7\(;[0-9]*\)*m$3${E}" "$TMP/sgr"; then
				ok "$1 $2: the selected point's cell still shows '$3', reversed"
			else
				nok "$1 $2: the selected point's cell still shows '$3', reversed" "$(cat -v "$TMP/sgr" | head -n 16)"
			fi
		fi
		i=$((i + 1))
	done
	if [ -z "$bad" ]; then ok "$1 $2: no selection hides a count or the R"
	else nok "$1 $2: no selection hides a count or the R" "changed after j:$bad" "$(cat "$UI_SCREEN")"; fi
}

# at 80x24 the third row (AS-8125GS-TNHR-1) is one of the seven points of a cell; at 200x60
# the fourth (eos_ngc23.04_pytorch) one of the four of another
sweep 80x24 "" 7 2
sweep 80x24 NO_COLOR=1 7 2
sweep 200x60 "" 4 3

# zoomed SIZE: j z z on the 62 rows of v5.1 Llama2-LoRA (every bundled round loaded)
unset GPUSCALE_DATA
zoomed() {
	cols=${1%x*} rows=${1#*x}
	ui_start "$cols" "$rows" "" --round v5.1 -w llama2_70b_lora
	ui_wait "q quit" || true
	ui_keys j
	ui_keys z
	ui_keys z
	ui_wait "view: table only" || true
	ui_settle
	first=$(awk '/^ +# +(submitter +)?system/ { getline; print $1; exit }' "$UI_SCREEN")
	if [ "$first" = 1 ]; then ok "$1: table-only zoom shows rank 1 first"
	else nok "$1: table-only zoom shows rank 1 first" "first rank '$first'" "$(cat "$UI_SCREEN")"; fi
	tm capture-pane -e -p -t gs >"$TMP/sgr" 2>/dev/null
	if grep -q "${E}\[\([0-9]*;\)*7\(;[0-9]*\)*m\(${E}\[[0-9;]*m\)* *2 " "$TMP/sgr"; then ok "$1: the selection (rank 2) is in view"
	else nok "$1: the selection (rank 2) is in view" "$(cat -v "$TMP/sgr" | head -n 8)"; fi
}
zoomed 80x24
zoomed 200x60
ui_stop
