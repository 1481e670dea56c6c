#!/bin/sh
# U undoes the changes of the view one level at a time, back to the view the explorer opened
# with; : shows the command line of the view, and that line run with --print summary reports the
# same as the command line written by hand for the view; a value the = or K prompt refuses is
# cleared, so that the next value typed is read alone. At 80x24, 120x40 and 200x60.
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
echo "1..$n_"
