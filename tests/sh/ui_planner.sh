#!/bin/sh
# The planner's keys at 80x24 and 200x60: Q opens the query prompt and marks the answer rows
# (the '@' in the plot, bold and underlined in the table) with the answer --print query gives;
# W shows the break-even trend, the --print trend cells, with the current round and family's
# cell highlighted; the arrows move it and Enter opens that round filtered to that family.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

"$GPUSCALE" --print query --deadline 30 -w llama2_70b_lora >"$TMP/q" 2>&1
best=$(sed -n 's/^  best        \([^:]*\): \([^ ]*\) (N=.*/\1 \2/p' "$TMP/q")
[ -n "$best" ] && ok "--print query names a best row ($best)" || nok "--print query names a best row" "$(head -3 "$TMP/q")"
"$GPUSCALE" --print trend -w llama2_70b_lora >"$TMP/t" 2>&1
h100=$(sed -n 's/^H100 SXM  *//p' "$TMP/t" | tr -s ' ')
[ -n "$h100" ] && ok "--print trend has an H100 SXM row" || nok "--print trend has an H100 SXM row" "$(cat "$TMP/t")"

for size in "80 24" "200 60"; do
	set -- $size
	c=$1 r=$2
	ui_start "$c" "$r" "" -w llama2_70b_lora
	ui_wait "Llama2-LoRA" || { nok "${c}x$r: explorer starts" "$(cat "$UI_SCREEN")"; continue; }
	ui_cap
	plot_at0=$(grep -c '@' "$UI_SCREEN")
	tm capture-pane -e -p -t gs >"$TMP/esc0"
	u0=$(grep -c "$(printf '\033')\[[0-9;]*4m" "$TMP/esc0")

	# ---- Q ----
	ui_keys Q
	ui_see "${c}x$r: Q opens the query prompt" "query (e.g. deadline 30"
	ui_keys "deadline 30" Enter
	ui_see "${c}x$r: Q: the answer names the best row, as --print query" "best ${best%% *}: "
	# waits for the whole text: a slow build draws the message in more than one frame
	ui_see "${c}x$r: Q: ... the same system" "best ${best%% *}: ${best#* } (N="
	plot_at=$(grep -c '@' "$UI_SCREEN")
	if [ "$plot_at" -gt "$plot_at0" ]; then
		ok "${c}x$r: Q: answer rows marked @ in the plot"
	else
		nok "${c}x$r: Q: answer rows marked @ in the plot" "$(cat "$UI_SCREEN")"
	fi
	# the table marks them bold and underlined (the selected row is in reverse video anyway):
	# underlined lines appear, where there were none
	tm capture-pane -e -p -t gs >"$TMP/esc"
	u=$(grep -c "$(printf '\033')\[[0-9;]*4m" "$TMP/esc")
	if [ "$u" -gt "$u0" ]; then
		ok "${c}x$r: Q: answer rows underlined in the table ($u lines)"
	else
		nok "${c}x$r: Q: answer rows underlined in the table" "$u underlined lines, $u0 before"
	fi
	ui_keys Q
	ui_keys "nonsense 3" Enter
	ui_see "${c}x$r: Q: a bad query says why and keeps the prompt" "query: 'nonsense' is not"
	ui_keys Escape
	# a part given twice is refused, as on the command line; a unit may follow a value
	ui_keys Q
	ui_keys "t 1 t 2" Enter
	ui_see "${c}x$r: Q: a keyword given twice is refused" "query: t given twice"
	ui_keys Escape
	ui_keys Q
	ui_keys "t 30 min" Enter
	ui_see "${c}x$r: Q: t 30 min reads the unit" "best ${best%% *}: "
	ui_keys Q Enter
	ui_see "${c}x$r: Q then Enter on nothing clears the query" "query cleared"

	# ---- W ----
	ui_keys W
	ui_see "${c}x$r: W shows the trend" "break-even by round"
	ui_cap
	if grep -q "H100 SXM" "$UI_SCREEN" && grep -q "v5.1\*" "$UI_SCREEN"; then
		ok "${c}x$r: W: the families and the current round (starred)"
	else
		nok "${c}x$r: W: the families and the current round" "$(cat "$UI_SCREEN")"
	fi
	line=$(grep "H100 SXM" "$UI_SCREEN" | head -1 | tr -s ' ' | sed 's/^[ |]*//; s/[ |]*$//')
	for cell in $(printf '%s\n' "$h100" | sed 's/ @/@/g; s/one row/one_row/g'); do
		cell=$(printf '%s' "$cell" | sed 's/@/ @/; s/one_row/one row/')
		case $line in
		*"$cell"*) ;;
		*) nok "${c}x$r: W: H100 SXM's cells are --print trend's" "'$cell' not in '$line'"; continue 2 ;;
		esac
	done
	ok "${c}x$r: W: H100 SXM's cells are --print trend's"
	# the cursor: the selected row's family in the current round, highlighted
	tm capture-pane -e -p -t gs >"$TMP/esc"
	if grep -q "$(printf '\033')\[[0-9;]*7[;m]" "$TMP/esc" || grep -q "$(printf '\033')\[[0-9;]*4[0-9][;m]" "$TMP/esc"; then
		ok "${c}x$r: W: one cell is highlighted"
	else
		nok "${c}x$r: W: one cell is highlighted" "$(head -c 400 "$TMP/esc" | od -c | head)"
	fi
	# go to H100 SXM in v4.1: down until the line, then left twice from v5.1
	i=0
	while [ $i -lt 20 ]; do ui_keys Up; i=$((i + 1)); done
	ui_keys Down Down Down Down Down Down Left Left
	sleep 0.3
	ui_keys Enter
	ui_see "${c}x$r: Enter opens that round" "v4.1"
	ui_see "${c}x$r: ... filtered to that family, with its break-even" "v4.1 H100 SXM: break-even 64..<128 @4"
	ui_keys q
	ui_exits "${c}x$r: q quits"
	ui_stop
done

# ---- the family's prediction in the detail (the fit on), as --predict says it ----
"$GPUSCALE" --predict 128 -w llama2_70b_lora -f "H200 SXM" >"$TMP/pr" 2>&1
want=$(sed -n 's/^  H200 SXM: //p' "$TMP/pr")
[ -n "$want" ] && ok "--predict 128 for H200 SXM ($want)" || nok "--predict 128 for H200 SXM" "$(cat "$TMP/pr")"
ui_start 200 60 "" -w llama2_70b_lora -f "'H200 SXM'"
if ui_wait "Llama2-LoRA"; then
	ui_keys L
	ui_wait "scaling-law fit on" >/dev/null
	ui_keys Enter
	ui_see "detail: the family's law at twice its largest N, as --predict 128 gives it" "predicted     $want"
	ui_keys q
	ui_keys q
	ui_exits "q quits"
else
	nok "explorer starts on H200 SXM" "$(cat "$UI_SCREEN")"
fi
ui_stop

# ---- more rounds than 80 columns hold (BERT: 7): the cursor's column still shows, highlighted ----
ui_start 80 24 "" -w bert
if ui_wait "BERT"; then
	ui_keys W
	ui_wait "break-even by round" >/dev/null
	tm capture-pane -e -p -t gs >"$TMP/esc"
	# the highlighted cell: reverse video on a line of the box, holding a cell ("@N" or "-")
	if grep "$(printf '\033')\[[0-9;]*7m" "$TMP/esc" | grep -q '|.*|'; then
		ok "80x24 BERT: W highlights the cursor's cell though the rounds are wider than the screen"
	else
		nok "80x24 BERT: W highlights the cursor's cell" "$(cat "$UI_SCREEN")"
	fi
	# Gaudi has rows in v2.0 alone (256+ @128): its cell shows only once the window moved there
	ui_cap
	before=$(grep -c "256+ @128" "$UI_SCREEN")
	ui_keys Left Left Left Left Left Left Left Left
	if [ "$before" -eq 0 ] && ui_wait "256+ @128"; then
		ok "80x24 BERT: Left to the first round shows the first columns"
	else
		nok "80x24 BERT: Left to the first round shows the first columns" "$(cat "$UI_SCREEN")"
	fi
	ui_keys q q
	ui_exits "q quits"
else
	nok "explorer starts on BERT" "$(cat "$UI_SCREEN")"
fi
ui_stop

# ---- 3,000 rounds (tests/sh/trend_rounds.sh's file): W reaches every one, the current round
# marked; the line below the families says which rounds show and how many more lie either side ----
rounds_csv 3000 "$TMP/rounds.csv"
ui_start 80 24 "" "'$TMP/rounds.csv'"
if ui_wait "r02999 mybench"; then
	ui_keys W
	ui_see "3,000 rounds: W opens on the current round, the newest, starred" "r02999*"
	ui_see "... and says how many rounds lie to its left" "rounds 2995-3000 of 3000, 2994 more <"
	tm capture-pane -e -p -t gs >"$TMP/esc"
	if grep "$(printf '\033')\[[0-9;]*7m" "$TMP/esc" | grep -q 'GPUA.*|'; then ok "3,000 rounds: the cursor's cell is highlighted"
	else nok "3,000 rounds: the cursor's cell is highlighted" "$(cat "$UI_SCREEN")"; fi
	ui_keys Home
	ui_see "3,000 rounds: Home goes to the first round" "rounds 1-6 of 3000, 2994 more >; current r02999* >"
	# one round at a time, well past the 64 the overlay once held
	ui_keys $(yes Right | head -n 100)
	ui_see "3,000 rounds: Right 100 times reaches round 101" "r00100 "
	ui_see "... the rounds either side counted" "2899 more >; current r02999* >"
	ui_keys NPage
	ui_see "3,000 rounds: PgDn moves a screen of rounds" "r00105 "
	ui_keys Enter
	ui_see "3,000 rounds: Enter opens the cursor's round" "r00105 GPUA: break-even"
	ui_keys W End
	ui_see "3,000 rounds: End goes back to the last round" "rounds 2995-3000 of 3000, 2994 more <"
	ui_keys q q
	ui_exits "3,000 rounds: q quits"
else
	nok "explorer starts on 3,000 rounds" "$(cat "$UI_SCREEN")"
fi
ui_stop
