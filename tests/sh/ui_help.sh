#!/bin/sh
# The help overlay is generated from the key table: every help text of src/ui_keys.c and every
# key name of the man page's key table (gpuscale(1)) shows up in it (paging through it when it is long).
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
# written against the v4.1 round alone
one_round v4.1

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

sed -n 's/^[[:space:]]*UI_KEY(.*, "\(.*\)"),$/\1/p' "$GS_TOP/src/ui_keys.c" | sort -u >"$TMP/helps"
nhelps=$(wc -l <"$TMP/helps" | tr -d ' ')
if [ "$nhelps" -ge 40 ]; then ok "key table has $nhelps help texts"; else nok "key table help texts" "only $nhelps"; fi

# The mouse is in the one table too: ui_main.c turns a pointer event into a code and hands it
# to the dispatcher; what a click or the wheel does is an action of the table.
if grep -Eq 'ui_state_(select|plot_hit)|ui_layout_pane_at' "$GS_TOP/src/ui_main.c"; then
	nok "the event loop decides no mouse action itself" "$(grep -nE 'ui_state_(select|plot_hit)|ui_layout_pane_at' "$GS_TOP/src/ui_main.c")"
else
	ok "the event loop decides no mouse action itself"
fi
for code in UI_PTR_CLICK UI_PTR_WHEEL_UP UI_PTR_WHEEL_DOWN; do
	contains "the key table has $code" "$GS_TOP/src/ui_keys.c" "UI_KEY($code,"
done

for size in "250 70" "120 40" "80 24"; do
	set -- $size
	ui_start "$1" "$2" ""
	ui_wait "[BERT]"
	ui_keys F1
	ui_wait "this help"
	: >"$TMP/all"
	i=0
	while [ $i -lt 30 ]; do
		ui_cap
		cat "$UI_SCREEN" >>"$TMP/all"
		cp "$UI_SCREEN" "$TMP/prev"
		ui_keys Space
		sleep 0.2
		ui_cap
		cmp -s "$UI_SCREEN" "$TMP/prev" && break
		i=$((i + 1))
	done
	missing=
	while IFS= read -r h; do
		grep -qF -- "$h" "$TMP/all" || missing="$missing [$h]"
	done <"$TMP/helps"
	if [ -z "$missing" ]; then ok "$1x$2: help shows every help text of the key table"
	else nok "$1x$2: help shows every help text of the key table" "missing:$missing"; fi
	missing=
	for k in q 'Ctrl-C, F10' '?, F1' 'Tab, Right' 'Shift-Tab, Left' 1-9 '[' ']' 'Up, k' 'Down, j' PgUp PgDn 'g, Home' 'G, End' \
		Enter f F r R m + - a c y Y t T p 's, >, F6' '<' S '/, F3' n N e M Ctrl-L Space Esc Backspace click wheel \
		z o b '|, F4' = K Ctrl-U text; do
		grep -qF -- "  $k " "$TMP/all" || missing="$missing [$k]"
	done
	if [ -z "$missing" ]; then ok "$1x$2: help names every key of the man page"
	else nok "$1x$2: help names every key of the man page" "missing:$missing"; fi
	# the "what you see" page: the marks, the headings (min is minutes), I, sil, the formulas
	missing=
	for w in "what you see" "the reference row" "Pareto: no other row" "the break-even row" \
		"upper case: a Pareto point" "ten or more points" "T, minutes to train" "k-means inertia" \
		"mean silhouette" "S = T_ref/T; E = S/N; E' = S/(N/N_ref)" "SUBMITTER/SYSTEM" \
		"descending (v) or" "ascending (^)"; do
		grep -qF -- "$w" "$TMP/all" || missing="$missing [$w]"
	done
	if [ -z "$missing" ]; then ok "$1x$2: the help explains what is on the screen"
	else nok "$1x$2: the help explains what is on the screen" "missing:$missing"; fi
	# keys by their names, never a raw code (the trend's Left and Right were #2097412 ...)
	if grep -qE '#[0-9]{4,}' "$TMP/all"; then nok "$1x$2: no raw key code in the help" "$(grep -E '#[0-9]{4,}' "$TMP/all")"
	else ok "$1x$2: no raw key code in the help"; fi
	contains "$1x$2: the trend's arrows by name" "$TMP/all" "Left, h"
	contains "$1x$2: the status line's brackets as they are drawn" "$TMP/all" "16..<32"
	ui_keys Escape
	ui_gone "$1x$2: Esc closes the help" "this help"
	ui_keys q
	ui_exits "$1x$2: q exits 0"
done
ui_stop
