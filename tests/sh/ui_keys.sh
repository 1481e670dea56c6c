#!/bin/sh
# The keys of the main screen, driven in tmux against the bundled v4.1 data: workloads, the
# family filter, reference pinning and modes, k, theta, sort, search and the detail overlay.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
# written against the v4.1 round alone
one_round v4.1

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

# plot_of: the plot rows of the screen (stacked layout: between the header and the table)
plot_of() { sed -n '2,/^ *# /p' "$UI_SCREEN" | sed '$d'; }
# sort_order: "NAME MARK ORDER ROWS" of the ranked table on the screen: the column with the sort
# mark (v or ^ a blank after its name), the mark, and whether that column's values in the shown
# rows go down, up, both (all equal) or neither; its numbers end where the mark is
sort_order() {
	ui_cap
	awk '!h && /^ *# / {
		h = 1
		if (!match($0, /[^ ] [v^]( |$)/)) { print "none - none 0"; exit }
		pos = RSTART + 2; mark = substr($0, pos, 1)
		name = substr($0, 1, pos - 2); sub(/.* /, "", name)
		next
	}
	h && /^ +[0-9]+ / { v[++n] = substr($0, pos - 6, 7) + 0; next }
	h && n { exit }
	END {
		if (mark == "") exit
		up = down = 1
		for (i = 2; i <= n; i++) { if (v[i] < v[i - 1]) up = 0; if (v[i] > v[i - 1]) down = 0 }
		print name, mark, (n < 5 ? "few" : up && down ? "flat" : up ? "up" : down ? "down" : "mixed"), n
	}' "$UI_SCREEN"
}

# paper mode: the reference checks below are the paper's (one reference for every shown row);
# that the explorer opens in family mode is ui_start.sh's
ui_start 100 30 "" -m paper
ui_wait "[BERT]"

# ---- workloads ----
ui_keys Tab
ui_see "Tab: next workload" "[Llama2-LoRA]"
ui_keys 3
ui_see "3: third workload" "[RetinaNet]"
ui_keys BTab
ui_see "Shift-Tab: previous workload" "[Llama2-LoRA]"
ui_keys 1
ui_see "1: first workload" "[BERT]"
ui_see "back on BERT the paper reference returns" "ref (paper) Krai/7920T_2xA5000_hdd"
ui_keys 9
ui_see "9 with fewer workloads: a message, no crash" "no workload 9"
# Left and Right walk the tabs as they lie (rounds are [ and ])
ui_keys Right
ui_see "Right: the tab to the right" "[Llama2-LoRA]"
ui_keys Left Left
ui_see "Left twice: back past the first tab to the last" "[R-GAT]"
ui_keys Right
ui_see "Right from the last tab: the first" "[BERT]"
# htop's function keys: F3 searches, F6 sorts, F1 helps; a key bound to nothing says so
ui_keys F3
ui_see "F3: the search prompt" "Enter keeps, Esc cancels"
ui_keys Escape
ui_keys F6
ui_see "F6: sort by the next column" "sorted by"
ui_keys U
ui_see "U undoes the sort of F6" "undone: "
ui_keys F5
ui_see "F5: bound to nothing, and says so" "key F5 does nothing here: ? lists the keys"
ui_keys F1
ui_see "F1: the help" "this help"
ui_see "the help names the arrow keys of the tabs" "Tab, Right"
lacks "no raw key code in the help" "$UI_SCREEN" "#2097"
ui_keys F1
ui_gone "F1 again closes the help" "this help"

# ---- family filter ----
plot_of >"$TMP/plot0"
ui_keys f
ui_see "f opens the family menu with counts" "family filter"
# the title can be on the screen before the list is (a loaded machine): the list, then read it
ui_wait '[ ] H100 SXM '
menu_first=$(grep -n '\[ \] ' "$UI_SCREEN" | head -n 1 | cut -d: -f1)
h100=$(grep -n '\[ \] H100 SXM ' "$UI_SCREEN" | head -n 1 | cut -d: -f1)
if [ -n "$h100" ] && [ -n "$menu_first" ]; then
	ok "H100 SXM is in the menu"
	n=$((h100 - menu_first))
	while [ "$n" -gt 0 ]; do ui_keys Down; n=$((n - 1)); done
	ui_keys Space
	ui_see "Space checks the family" "[x] H100 SXM"
	ui_keys Enter
	ui_see "Enter applies: status shows the filter" "filter: H100 SXM"
	ui_see "the reference becomes the smallest H100 SXM system" "ref (paper) Fujitsu/GX2560M7_H100_SXM_80GBx4"
	ui_see "only the H100 SXM rows are shown" "14/29 rows"
	lacks "no other family left in the table" "$UI_SCREEN" "A100 PCIe"
	plot_of >"$TMP/plot1"
	if cmp -s "$TMP/plot0" "$TMP/plot1"; then nok "the plot changes with the filter" "$(cat "$TMP/plot1")"
	else ok "the plot changes with the filter"; fi
else
	nok "H100 SXM is in the menu" "$(cat "$UI_SCREEN")"
	ui_keys Escape # the menu closed, so that the checks below see the main screen
fi

# ---- theta and break-even (on the H100 SXM rows) ----
# against GX2560M7 (N=4, 10.55 min): lambda_1cc_n2 at N=16 has E' 0.802, the one N=48 row 0.659;
# at 0.85 the fastest row reaching it is AS-8125GS at N=8 (0.978) and N=16 is below
ui_see "break-even at theta 0.8" "theta 0.8: 16..<48 thr "
ui_keys t
ui_see "t: theta up, break-even N moves" "theta 0.85: 8..<16 thr "
ui_keys T T
ui_see "T: theta down" "theta 0.75: 16..<48 thr "
ui_keys t
ui_see "back to 0.8" "theta 0.8: 16..<48 thr "
i=0; while [ $i -lt 40 ]; do ui_keys T; i=$((i + 1)); done
ui_see "theta stops at 0.05" "theta 0.05"

ui_keys F
ui_see "F clears the filter" "filter: all"
ui_see "all rows again" "29/29 rows"

# ---- k and clusters ----
ui_see "k starts at 3" " k=3 "
ui_keys +
ui_see "+: k up" " k=4 "
ui_see "+: a fourth cluster in the cluster line" "| 4: "
ui_keys - -
ui_see "-: k down" " k=2 "
ui_gone "-: the cluster line loses clusters" "| 3: "
ui_keys a
ui_see "a: auto-k" " auto "
ui_keys c
ui_see "c: cycles the cluster features" "cluster features"

# ---- reference: pin and modes ----
ui_keys /
ui_keys -l eos_n8
ui_see "/ opens the search prompt" "/eos_n8_"
ui_keys Enter
ui_see "Enter keeps the match, counted" "match 1/1 for \"eos_n8\""
ui_keys r
ui_see "r pins the selected system" "ref (pinned) NVIDIA/eos_n8_ngc23.04_pytorch"
ui_keys m
ui_see "m: per-family mode" "ref: per family"
ui_keys m
ui_see "m: back to the paper rule" "ref (paper) Krai/7920T_2xA5000_hdd"
ui_keys m
ui_see "m: pinned again, same system" "ref (pinned) NVIDIA/eos_n8_ngc23.04_pytorch"
ui_keys R
ui_see "R: paper rule" "ref (paper) Krai/7920T_2xA5000_hdd"

# ---- sort ----
ui_keys s
ui_see "s: sorted by the next column" "sorted by"
line=$(ui_line '^ *# ')
case "$line" in *"E' v"*) nok "s moves the sort mark off E'" "$line" ;; *\ [v^]\ *|*\ [v^]) ok "s moves the sort mark off E'" ;; *) nok "s moves the sort mark off E'" "$line" ;; esac
before=$(sort_order)
case "$before" in "S v down "*) ok "s: the table is ranked by S, largest first" ;;
*) nok "s: the table is ranked by S, largest first" "$before" "$(cat "$UI_SCREEN")" ;; esac
ui_keys S
# the message is on the last line, drawn after the table
ui_wait "sorted by speedup S (ascending)"
after=$(sort_order)
case "$after" in "S ^ up "*) ok "S reverses: the rows go from the smallest S up ($before -> $after)" ;;
*) nok "S reverses: the rows go from the smallest S up" "$before -> $after" "$(cat "$UI_SCREEN")" ;; esac

# ---- search, n/N and detail ----
ui_keys /
ui_keys -l TINYBOX_G
ui_keys Enter
ui_keys Enter
ui_see "search is case-insensitive; Enter shows the detail" "detail: tinybox_green"
ui_see "the detail names the submitter" "tinycorp"
ui_see "the detail names the results folder" "results tree  tinycorp/results/tinybox_green/bert"
ui_see "the detail names the failed run's log" "failed logs   result_2.txt"
ui_press_until j "dropped (fastest)"
ui_see "the detail lists the runs" "run  1"
ui_see "the detail marks the runs the olympic average dropped" "dropped (fastest)"
ui_keys G
ui_see "G scrolls the detail to the last run" "run  9"
ui_see "tinybox_green has a failed run" "1 failed"
lacks "so no slow run is dropped (the failed one counts as dropped)" "$UI_SCREEN" "dropped (slowest)"
ui_keys q /
ui_keys -l tinybox_r
ui_keys Enter Enter
ui_see "the detail shows Karp-Flatt" "Karp-Flatt"
ui_keys G
ui_see "with no failed run the slowest run is dropped" "dropped (slowest)"
ui_see "the detail of tinybox_red is open" "detail: tinybox_red"
ui_keys Escape
ui_gone "Esc closes the detail" "detail: "
ui_gone "Esc: nothing of the detail is left" "dropped (slowest)"
ui_keys /
ui_keys -l lambda
ui_keys Enter
ui_keys Enter
ui_wait "detail: lambda_1cc_n"
first=$(grep -o 'detail: lambda_1cc_n[0-9]*' "$UI_SCREEN")
# the detail gone before the next one is looked for: a capture taken before q is read still
# shows the first
ui_keys q
ui_wait_gone "detail: "
ui_keys n Enter
ui_wait "detail: "
second=$(grep -o 'detail: lambda_1cc_n[0-9]*' "$UI_SCREEN")
if [ -n "$first" ] && [ -n "$second" ] && [ "$first" != "$second" ]; then ok "n: next match"
else nok "n: next match" "first '$first', second '$second'" "$(cat "$UI_SCREEN")"; fi
ui_keys q
ui_wait_gone "detail: "
ui_keys N Enter
ui_wait "detail: "
third=$(grep -o 'detail: lambda_1cc_n[0-9]*' "$UI_SCREEN")
if [ "$third" = "$first" ]; then ok "N: previous match"; else nok "N: previous match" "'$third' vs '$first'"; fi
ui_keys q
ui_keys /
ui_keys -l zzzz-nothing
ui_see "a search without match says so" "no match"
ui_keys Escape
# The prompt shows the message it was given: "no match" only when the text matches nothing.
ui_keys /
ui_keys Up
ui_see "Up in an empty prompt says there is no text yet" "nothing to search: type some text"
lacks "... and not that nothing matched" "$UI_SCREEN" "no match"
ui_keys -l tinybox
ui_gone "a text that matches: no message" "nothing to search"
lacks "... and no 'no match'" "$UI_SCREEN" "no match"
ui_keys -l zz
ui_see "a text that matches nothing: no match" "no match"
ui_keys Down
ui_see "Down then names the text that matches nothing" "no match for \"tinyboxzz\""
ui_keys Escape

# ---- moving ----
ui_keys G
ui_wait " 29 "
# the system column of row 29, found under its header (names cut with ~ lose the ~)
last=$(awk '/^ *# / { s = index($0, "system"); f = index($0, "family") }
	s && $1 == 29 { v = substr($0, s, f - s); sub(/ +$/, "", v); sub(/~$/, "", v); print v; exit }' "$UI_SCREEN")
ui_keys Enter
if [ -n "$last" ]; then ui_see "G then Enter: the last row's detail ($last)" "detail: $last"
else nok "G shows row 29" "$(cat "$UI_SCREEN")"; fi
ui_keys q g
ui_keys y
ui_see "y: the plot metric cycles" "y: S"
ui_keys M
ui_see "M turns the mouse off" "mouse off"
# Ctrl-L: the terminal is wiped and scribbled on behind the program's back (straight to the
# pane's tty); only a full repaint brings the screen back. The last line is left out of the
# comparison: the key also clears the "mouse off" message there.
ui_cap
sed '$d' "$UI_SCREEN" >"$TMP/whole"
printf '\033[2J\033[5;10HSCRIBBLED-ON-THE-TTY' >"$(tm display -p -t gs '#{pane_tty}')"
if ui_wait "SCRIBBLED-ON-THE-TTY" && ui_wait_gone "[BERT]" 1; then ok "the screen was wiped from outside"
else nok "the screen was wiped from outside" "$(cat "$UI_SCREEN")"; fi
ui_keys C-l
ui_gone "Ctrl-L: the scribble is gone" "SCRIBBLED-ON-THE-TTY"
w=0
while [ $w -lt 50 ]; do
	ui_cap
	sed '$d' "$UI_SCREEN" | cmp -s "$TMP/whole" - && break
	sleep 0.1
	w=$((w + 1))
done
if sed '$d' "$UI_SCREEN" | cmp -s "$TMP/whole" - && grep -q '29/29 rows' "$UI_SCREEN"; then
	ok "Ctrl-L repaints the whole screen as it was"
else
	nok "Ctrl-L repaints the whole screen as it was" "$(sed '$d' "$UI_SCREEN" | diff "$TMP/whole" -)"
fi
# Ctrl-S is not XOFF here: the screen keeps following the keys
ui_keys C-s Tab
ui_see "Ctrl-S does not freeze the screen" "[Llama2-LoRA]"
ui_keys F10
ui_exits "F10 exits 0"
if grep -Eq '(^| )ixon( |$)' "$TMP/stty"; then ok "flow control is the shell's again after exit"
else nok "flow control is the shell's again after exit" "$(cat "$TMP/stty")"; fi
ui_stop
