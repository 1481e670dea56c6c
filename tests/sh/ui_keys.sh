#!/bin/sh
# The keys of the main screen, driven in tmux against the bundled v4.1 data: workloads, the
# family filter, reference pinning and modes, k, theta, sort, search and the detail overlay.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

# plot_of: the plot rows of the screen (stacked layout: between the header and the table)
plot_of() { sed -n '2,/^ *# /p' "$UI_SCREEN" | sed '$d'; }

ui_start 100 30 ""
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

# ---- family filter ----
plot_of >"$TMP/plot0"
ui_keys f
ui_see "f opens the family menu with counts" "family filter"
menu_first=$(grep -n '\[ \] ' "$UI_SCREEN" | head -n 1 | cut -d: -f1)
h100=$(grep -n '\[ \] H100 SXM ' "$UI_SCREEN" | head -n 1 | cut -d: -f1)
if [ -n "$h100" ] && [ -n "$menu_first" ]; then
	ok "H100 SXM is in the menu"
	n=$((h100 - menu_first))
	while [ "$n" -gt 0 ]; do ui_keys j; n=$((n - 1)); done
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
fi

# ---- theta and break-even (on the H100 SXM rows) ----
ui_see "break-even at theta 0.8" "theta 0.8 -> N=16"
ui_keys t
ui_see "t: theta up, break-even N moves" "theta 0.85 -> N=8"
ui_keys T T
ui_see "T: theta down" "theta 0.75 -> N="
ui_keys t
ui_see "back to 0.8" "theta 0.8 -> N=16"
i=0; while [ $i -lt 40 ]; do ui_keys T; i=$((i + 1)); done
ui_see "theta stops at 0.05" "theta 0.05"

ui_keys F
ui_see "F clears the filter" "filter: all"
ui_see "all rows again" "29/29 rows"

# ---- k and clusters ----
ui_see "k starts at 3" " k=3 "
ui_keys +
ui_see "+: k up" " k=4 "
ui_see "+: a fourth cluster in the cluster line" "| d "
ui_keys - -
ui_see "-: k down" " k=2 "
ui_gone "-: the cluster line loses clusters" "| c "
ui_keys a
ui_see "a: auto-k" " auto "
ui_keys c
ui_see "c: cycles the cluster features" "cluster features"

# ---- reference: pin and modes ----
ui_keys /
ui_keys -l eos_n8
ui_see "/ opens the search prompt" "/eos_n8_"
ui_keys Enter
ui_see "Enter keeps the match" "search \"eos_n8\""
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
case "$line" in *"E'v"*) nok "s moves the sort mark off E'" "$line" ;; *[v^]\ *|*[v^]) ok "s moves the sort mark off E'" ;; *) nok "s moves the sort mark off E'" "$line" ;; esac
ui_keys S
ui_see "S reverses" "sorted by"

# ---- search, n/N and detail ----
ui_keys /
ui_keys -l TINYBOX_G
ui_keys Enter
ui_keys Enter
ui_see "search is case-insensitive; Enter shows the detail" "detail: tinybox_green"
ui_see "the detail names the submitter" "tinycorp"
ui_see "the detail lists the runs" "run  1"
ui_see "the detail marks the runs the olympic average dropped" "dropped (fastest)"
ui_keys G
ui_see "G scrolls the detail to the last run" "run  9"
ui_see "tinybox_green has a failed run" "1 failed"
lacks "so no slow run is dropped (the failed one counts as dropped)" "$UI_SCREEN" "dropped (slowest)"
ui_keys q /
ui_keys -l tinybox_r
ui_keys Enter Enter G
ui_see "with no failed run the slowest run is dropped" "dropped (slowest)"
ui_see "the detail shows Karp-Flatt" "Karp-Flatt"
ui_keys Escape
ui_gone "Esc closes the detail" "detail: tinybox_green"
ui_keys /
ui_keys -l lambda
ui_keys Enter
ui_keys Enter
ui_wait "detail: lambda_1cc_n"
first=$(grep -o 'detail: lambda_1cc_n[0-9]*' "$UI_SCREEN")
ui_keys q n Enter
ui_wait "detail: "
second=$(grep -o 'detail: lambda_1cc_n[0-9]*' "$UI_SCREEN")
if [ -n "$first" ] && [ -n "$second" ] && [ "$first" != "$second" ]; then ok "n: next match"
else nok "n: next match" "first '$first', second '$second'" "$(cat "$UI_SCREEN")"; fi
ui_keys q N Enter
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
ui_keys G Enter
ui_see "G then Enter: the last row's detail" "detail: "
ui_keys q g
ui_keys y
ui_see "y: the plot metric cycles" "y: S"
ui_keys M
ui_see "M toggles the mouse" "mouse o"
ui_keys C-l
ui_see "Ctrl-L redraws" "[BERT]"
# Ctrl-S is not XOFF here: the screen keeps following the keys
ui_keys C-s Tab
ui_see "Ctrl-S does not freeze the screen" "[Llama2-LoRA]"
ui_keys q
ui_exits "q exits 0"
if grep -Eq '(^| )ixon( |$)' "$TMP/stty"; then ok "flow control is the shell's again after exit"
else nok "flow control is the shell's again after exit" "$(cat "$TMP/stty")"; fi
ui_stop
