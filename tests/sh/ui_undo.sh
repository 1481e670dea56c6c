#!/bin/sh
# U undoes the changes of the view one level at a time, back to the view the explorer opened
# with; : shows the command line of the view, and that line run with --print summary reports the
# same as the command line written by hand for the view; a value the = or K prompt refuses is
# cleared, so that the next value typed is read alone. At 80x24, 120x40 and 200x60. Then a
# column choice (C) and a query (Q) over a file of a long path: the overlay's lines, pasted
# into sh as they show, run the view with its columns and query; U undoes both.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi
unset GPUSCALE_DATA

# cmdline_shown: the command line the : overlay shows (its pieces joined), or "" when none. The
# table-only view (z z) leaves no '|' left of the box: the first one on a line is its border.
cmdline_shown() {
	ui_keys :
	ui_wait "this view as a command line" || { echo ""; return; }
	awk '/gpuscale --round/ { on = 1 }
		on {
			sub(/^[^|\342]*(\||\342\224\202) /, "")
			sub(/ *(\||\342\224\202)[^|\342]*$/, "")
			more = sub(/ \\$/, "")
			sub(/^ +/, "")
			printf "%s%s", n++ ? " " : "", $0
			if (!more) exit
		}' "$UI_SCREEN"
	ui_keys Escape
	ui_wait_gone "this view as a command line" >/dev/null
}

# The views, from the first to the last change: each the command line written by hand.
v0="gpuscale --round v4.1 -w bert"
v1="gpuscale --round v4.1 -w bert --theta 0.9"
v2="gpuscale --round v4.1 -w bert --theta 0.9 -k 5"
v3="gpuscale --round v5.0 -w bert --theta 0.9 -k 5"
v4="gpuscale --round v5.0 -w bert --theta 0.9 -k 5 --sort s"
v5="gpuscale --round v5.0 -w bert -m paper --theta 0.9 -k 5 --sort s"
v6="gpuscale --round v5.0 -w llama2_70b_lora -m paper --theta 0.9 -k 5 --sort s"

summary() { eval "\"\$GPUSCALE\" ${1#gpuscale } --print summary" 2>/dev/null; }

summary "$v6" >"$TMP/want6"
summary "$v0" >"$TMP/want0"
if [ -s "$TMP/want6" ] && ! cmp -s "$TMP/want6" "$TMP/want0"; then ok "the last view's summary differs from the first's"
else nok "the last view's summary differs from the first's" "$(head -c 300 "$TMP/want6")"; fi

for size in 80x24 120x40 200x60; do
	cols=${size%x*} rows=${size#*x}
	ui_start "$cols" "$rows" "" --round v4.1 -w bert
	ui_wait "BERT" || { nok "$size: the explorer opens" "$(cat "$UI_SCREEN")"; continue; }
	ui_keys z z
	ui_wait "table only"

	# ---- the value prompts clear what they refuse ----
	ui_keys =
	ui_wait "theta: "
	ui_keys -l 99
	ui_keys Enter
	ui_see "$size: = refuses 99 and says why" "theta: '99' is not a number in 0.05..10"
	if ui_line '^ ?theta: _' >/dev/null; then ok "$size: the refused theta is cleared from the prompt"
	else nok "$size: the refused theta is cleared from the prompt" "$(tail -n 3 "$UI_SCREEN")"; fi
	ui_keys -l 0.9
	ui_keys Enter
	ui_see "$size: the next value is read alone (0.9, not 990.9)" "theta 0.9:"
	ui_keys K
	ui_wait "k: "
	ui_keys -l x
	ui_keys Enter
	ui_see "$size: K refuses x and says why" "k: 'x' is not a whole number"
	ui_keys 5
	ui_keys Enter
	ui_see "$size: then k 5 is read alone" "k=5 "

	# ---- five more kinds of change: round, sort, mode, workload ----
	ui_keys ']'
	ui_wait "v5.0 BERT"
	ui_keys s
	ui_wait "sorted by"
	ui_keys m
	ui_wait "paper"
	ui_keys Tab
	ui_wait "[Llama2-LoRA]"
	got=$(cmdline_shown)
	if [ "$got" = "$v6" ]; then ok "$size: : shows the view's command line"
	else nok "$size: : shows the view's command line" "got:  $got" "want: $v6" "$(cat "$UI_SCREEN")"; fi
	summary "$got" >"$TMP/got"
	if [ -s "$TMP/got" ] && cmp -s "$TMP/got" "$TMP/want6"; then ok "$size: the shown line's --print summary is the view's"
	else nok "$size: the shown line's --print summary is the view's" "$(diff "$TMP/got" "$TMP/want6" | head -n 8)"; fi
	# the screen's break-even (paper mode: one group) is the summary's bracket
	ui_cap
	be=$(grep -o 'theta 0\.9: [0-9][0-9.<+]*' "$UI_SCREEN" | head -n 1 | sed 's/^theta 0\.9: //')
	if [ -n "$be" ] && grep -qE "(^ +bracket +|^  break-even .* -> )$(printf '%s' "$be" | sed 's/[.+]/\\&/g')( |$)" "$TMP/got"; then
		ok "$size: the screen's break-even $be is the summary's"
	else
		nok "$size: the screen's break-even is the summary's" "screen: '$be'" "$(grep -E 'bracket|break-even' "$TMP/got")"
	fi

	# the export's plot says the same line
	rm -f "$TMP"/gpuscale-*.txt
	ui_keys e
	ui_wait "exported "
	if grep -qxF "# view: $v6" "$TMP"/gpuscale-*.txt 2>/dev/null; then ok "$size: the export's plot header holds the line"
	else nok "$size: the export's plot header holds the line" "$(head -n 2 "$TMP"/gpuscale-*.txt 2>&1)"; fi

	# ---- U goes back one view at a time ----
	for level in 5 4 3 2 1 0; do
		ui_keys U
		ui_wait "($level more to undo)"
		eval "want=\$v$level"
		got=$(cmdline_shown)
		if [ "$got" = "$want" ]; then ok "$size: U back to view $level"
		else nok "$size: U back to view $level" "got:  $got" "want: $want"; fi
	done
	ui_keys U
	ui_see "$size: then nothing is left to undo" "nothing to undo"
	ui_keys q
	ui_exits "$size: quits" 0
done
# ---- columns, query and a long path: the lines as shown, pasted into sh ----
# cmdline_lines: the : overlay's lines, borders off, blanks inside kept, as a user copies them
cmdline_lines() {
	ui_keys :
	ui_wait "this view as a command line" || return
	awk '/gpuscale --round/ { on = 1 }
		on {
			sub(/^[^|\342]*(\||\342\224\202) /, "")
			sub(/ *(\||\342\224\202)[^|\342]*$/, "")
			print
			if (!/\\$/) exit
		}' "$UI_SCREEN"
	ui_keys Escape
	ui_wait_gone "this view as a command line" >/dev/null
}
dir="$TMP/a folder whose name is long enough/to take more than one line of the overlay"
dir="$dir/and more than the 192 bytes a line once held, at any width of the screen"
mkdir -p "$dir"
cp "$GS_TOP/data/mlperf_training_v4.1.csv" "$dir/results v4.1.csv"
file="$dir/results v4.1.csv"
cols=round,submitter,family,n,t,s,ep,e,a,xh,kwh,cost,cluster,pareto,spread,gbs,samples,throughput,e_thru,e_conv,e_conv_rcp
"$GPUSCALE" -w bert --columns "$cols" --deadline 30 "$file" --print table,query >"$TMP/want_cq" 2>&1
"$GPUSCALE" -w bert "$file" --print table >"$TMP/want_plain" 2>&1
if [ -s "$TMP/want_cq" ] && grep -q 'best' "$TMP/want_cq" && ! cmp -s "$TMP/want_cq" "$TMP/want_plain"; then
	ok "the view with columns and a query reports otherwise than without"
else
	nok "the view with columns and a query reports otherwise than without" "$(head -c 300 "$TMP/want_cq")"
fi
for size in 80x24 200x60; do
	cols_=${size%x*} rows=${size#*x}
	ui_start "$cols_" "$rows" "" -w bert "'$file'"
	ui_wait "BERT" || { nok "$size: the explorer opens on the file" "$(cat "$UI_SCREEN")"; continue; }
	ui_keys C
	ui_wait "table columns"
	ui_keys Space Enter
	ui_wait "table columns: "
	ui_keys Q
	ui_wait "query (e.g."
	ui_keys "deadline 30" Enter
	ui_wait "best "
	cmdline_lines >"$TMP/lines"
	if [ "$(wc -l <"$TMP/lines")" -ge 2 ] && ! awk 'length > '"$((cols_ - 6))"' { exit 1 }' "$TMP/lines"; then
		nok "$size: the line is wrapped to the overlay" "$(cat "$TMP/lines")"
	elif [ "$(wc -l <"$TMP/lines")" -ge 2 ]; then
		ok "$size: the line is wrapped to the overlay ($(wc -l <"$TMP/lines") lines)"
	else
		nok "$size: the line is wrapped to the overlay" "$(cat "$UI_SCREEN")"
	fi
	{ printf 'gpuscale() { "$GPUSCALE" "$@" --print table,query; }\n'; cat "$TMP/lines"; } >"$TMP/paste.sh"
	GPUSCALE="$GPUSCALE" sh "$TMP/paste.sh" >"$TMP/got_cq" 2>&1
	if cmp -s "$TMP/got_cq" "$TMP/want_cq"; then ok "$size: the pasted lines report the view's table and query"
	else nok "$size: the pasted lines report the view's table and query" "$(cat "$TMP/lines")" "$(diff "$TMP/got_cq" "$TMP/want_cq" | head -n 6)"; fi
	ui_keys U
	ui_see "$size: U undoes the query" "undone: query"
	ui_keys U
	ui_see "$size: U undoes the column choice" "undone: columns"
	cmdline_lines >"$TMP/lines"
	got=$({ echo 'gpuscale() { printf "%s\n" "$@"; }'; cat "$TMP/lines"; } | sh)
	want=$(printf '%s\n' --round v4.1 -w bert "$file")
	if [ "$got" = "$want" ]; then ok "$size: ... back to the view it opened with"
	else nok "$size: ... back to the view it opened with" "got: $got" "$(cat "$TMP/lines")"; fi
	ui_keys q
	ui_exits "$size: quits" 0
done
echo "1..$n_"
