#!/bin/sh
# What the screen says after each key: messages never hide the k / theta / rows fields, they tell
# the result (auto-k's k, the pinned system), the reference keeps N and minutes at 80 columns,
# the tab bar marks tabs off either side, overlays stay above the status bar, and a terminal that
# cannot move the cursor is refused.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"
# written against the v4.1 round alone
one_round v4.1

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

# fields: the k / theta / rows status line is whole (theta's field: the groups' brackets, whole
# entries or a "+N more" count)
fields() {
	ui_cap
	if grep -Eq '^ k=[0-9]+.* sil .* \| theta [0-9.]+: [^|~]*[^ |~] \| [0-9]+/[0-9]+ rows' "$UI_SCREEN"; then ok "$1"
	else nok "$1" "$(tail -n 3 "$UI_SCREEN")"; fi
}

ui_start 80 24 ""
ui_wait "[BERT]"

# ---- messages and fields (items 1, 10) ----
# at 80 columns the features take their short form, leaving the room to the groups' brackets
ui_see "80x24: the cluster features are in the status line" "k=3 N,E' I="
ui_see "80x24: ... and the selected row's group's bracket with it" " | theta 0.8: RTX A5000 2+, +6 more | "
ui_keys a
ui_see "a: the message says which k auto-k chose" "auto-k: k="
ui_see "a: ... and its silhouette" "(silhouette 0."
fields "a: the k / theta / rows fields stay"
ui_keys c
ui_see "c: the message names the features" "cluster features (log2 N, log T)"
ui_see "c: the status line shows them" " N,T I="
fields "c: the fields stay"
ui_keys c c
ui_keys y
ui_see "y: says which metric" "plot: S"
fields "y: the fields stay"
ui_keys Y
ui_see "Y: log y on" "log y on"
# 80 columns: the legend's short form, theta's fields and the break-even first
ui_see "Y: the legend says log" "log S :"
ui_keys Y
ui_see "Y again: log y off" "log y off"
ui_keys p
ui_see "p: Pareto marks off" "Pareto marks off"
ui_keys p
ui_see "p: Pareto marks on" "Pareto marks on"
# as many more as --help lists plot metrics, less the one pressed above: back to the first
for m in $("$GPUSCALE" --help | grep -- '--y-metric M' | sed 's/.*plot y://; s/(default.*//' | tr ',' ' ' | awk '{ for (i = 2; i <= NF; i++) print $i }'); do
	ui_keys y
done
ui_see "y cycles back to E'" "plot: E'"
ui_keys R
ui_see "R: the message names the paper reference" "reference: paper rule, Krai/7920T_2xA5000_hdd (N=2"
fields "R: the fields stay"

# ---- sort messages (item 7) ----
ui_keys s
ui_see "s: full column name and direction" "sorted by speedup S (descending)"
ui_keys S
ui_see "S: ascending" "sorted by speedup S (ascending)"
i=0; while [ $i -lt 8 ]; do ui_keys s; i=$((i + 1)); done
ui_see "sort by cluster: its name" "sorted by cluster (ascending)"
line=$(ui_line '^ *# ')
case "$line" in *"cl ^"*) ok "sort by cluster: the arrow stands apart beside cl" ;; *) nok "sort by cluster: the arrow stands apart beside cl" "$line" ;; esac
ui_keys s s
ui_see "80 columns: sorted by spread" "sorted by spread (ascending)"
ui_see "80 columns: the sort column shows, whatever it is, with its mark" "spread ^"
ui_keys s

# ---- search without a match (item 9) ----
ui_keys g /
ui_keys -l G593-ZD1x
ui_keys Enter
ui_see "/G593-ZD1x: no match for the whole text" "no match for \"G593-ZD1x\""
ui_keys Enter
if ! ui_wait "detail: "; then nok "the selection is not left on the match of G593-ZD1" "no detail opened" "$(cat "$UI_SCREEN")"
elif grep -qF "detail: G593" "$UI_SCREEN"; then nok "the selection is not left on the match of G593-ZD1" "$(cat "$UI_SCREEN")"
else ok "the selection is not left on the match of G593-ZD1"; fi
ui_keys q

# ---- pinning, and a pin kept across workloads (items 1, 13) ----
ui_keys /
ui_keys -l eos_n8
ui_keys Enter r
ui_see "r: the message names the pinned system" "pinned: NVIDIA/eos_n8_ngc23.04_pytorch (N=64"
fields "r: the fields stay"
ui_keys Tab
ui_see "Tab to a workload without it: the paper rule there, the pin is kept" "paper rule here, pin kept"
ui_see "Tab: the reference is the paper one" "ref (paper)"
ui_keys BTab
ui_see "back on BERT: pinned again, and the message says so" "reference pinned again: eos_n8_ngc23.04_pytorch"
ui_see "back on BERT: the pinned reference" "ref (pinned) eos_n8_ngc23.04_pytorch N=64"
ui_keys R

# ---- detail: raw and scaled runs, failed runs (item 6) ----
ui_keys /
ui_keys -l tinybox_g
ui_keys Enter Enter
ui_see "detail: a position marker while lines remain" "-- more ("
ui_keys G
ui_see "detail: at the end the marker says so" "-- end ("
# the runs are above the break-even range and the reference candidates: scroll back to them
ui_press_until k "failed runs count as dropped slowest" 60
ui_see "detail: the failed run counts as the dropped slowest" "1 failed: failed runs count as dropped slowest"
ui_see "detail: the scaling factor is shown with the runs" "x scaling factor"
ui_see "detail: run times are labelled raw" "raw min   scaled min   (raw: unscaled)"
ui_keys q

# ---- help: position and mouse (item 5) ----
ui_keys '?'
ui_see "help: a position marker" "-- more ("
ui_keys G
ui_see "help: at the end" "-- end ("
ui_see "help: the end is what you see" "formulas"
ui_keys g
: >"$TMP/pages"
i=0
while [ $i -lt 30 ]; do ui_cap; cat "$UI_SCREEN" >>"$TMP/pages"; grep -qF -- "-- end (" "$UI_SCREEN" && break; ui_keys Space; sleep 0.2; i=$((i + 1)); done
contains "help: the mouse is documented" "$TMP/pages" "select a row or point"
contains "help: the wheel too" "$TMP/pages" "wheel"
contains "help: a click on a heading sorts" "$TMP/pages" "on a heading: sort by it"
ui_keys q

# ---- narrow: reference N and minutes, overlays inside the body (items 2, 12) ----
ui_keys f
ui_wait "family filter"
h100=$(grep -n '\[ \] H100 SXM ' "$UI_SCREEN" | head -n 1 | cut -d: -f1)
first=$(grep -n '\[ \] ' "$UI_SCREEN" | head -n 1 | cut -d: -f1)
n=$((h100 - first))
while [ "$n" -gt 0 ]; do ui_keys Down; n=$((n - 1)); done
ui_keys Space Enter
ui_see "80 columns, long reference id: N and minutes stay" "_80GBx4 N=4 10.55 min"
if grep -Eq 'ref \(paper\) GX2560M[^ ]*~[^ ]*_80GBx4 N=4' "$UI_SCREEN"; then ok "80 columns: the reference id is cut in the middle, its tail kept"
else nok "80 columns: the reference id is cut in the middle" "$(grep 'ref (' "$UI_SCREEN")"; fi
tm resize-window -t gs -x 60 -y 16
ui_wait "[BERT]"
ui_keys '?'
ui_wait "this help"
ui_cap
# the overlay's bottom border (the table may show one column beside it)
bottom=$(grep -nE '^ *\+-.*\+.? *$' "$UI_SCREEN" | tail -n 1 | cut -d: -f1)
if [ -n "$bottom" ] && [ "$bottom" -le 13 ]; then ok "60x16: the overlay ends above the cluster and status lines"
else nok "60x16: the overlay ends above the cluster and status lines" "$(cat "$UI_SCREEN")"; fi
ui_see "60x16: the status line is still readable under the overlay" "14/29 rows"
ui_see "60x16: long help lines are cut with ~" "~ |"
ui_see "60x16: the reference keeps N and minutes" "_80GBx4 N=4 10.55 min"
ui_keys q q
ui_exit_code >/dev/null

# ---- 120x40 stacked, 250x70 side by side: the table keeps S and A (item 3) ----
ui_start 120 40 ""
ui_wait "[BERT]"
line=$(ui_line '^ *# ')
case "$line" in *" S "*" A "*) ok "120x40: the table shows S and A" ;; *) nok "120x40: the table shows S and A" "$line" ;; esac
ui_keys q
ui_exit_code >/dev/null
ui_start 250 70 ""
ui_wait "[BERT]"
line=$(ui_line '^ E. vs accelerators')
case "$line" in *" S "*" A "*) ok "250x70: side by side, the table shows S and A" ;; *) nok "250x70: side by side, the table shows S and A" "$line" ;; esac
ui_keys q
ui_exit_code >/dev/null
ui_start 250 40 ""
ui_wait "[BERT]"
ui_see "250 columns: family names are whole" "GeForce RTX 4090"
ui_keys q
ui_exit_code >/dev/null

# ---- nine workloads: '>' and the active tab whole (item 4) ----
ui_start 80 24 "" "$GS_TOP/data/mlperf_training_v4.0.csv"
ui_wait "[BERT]"
ui_cap
head -n 1 "$UI_SCREEN" | grep -Eq '>$' && ok "80 columns, nine workloads: '>' marks the tabs off the right" ||
	nok "80 columns, nine workloads: '>' marks the tabs off the right" "$(head -n 1 "$UI_SCREEN")"
ui_keys 8
ui_see "8: the active tab is whole" "[ResNet]"
head -n 1 "$UI_SCREEN" | grep -Eq '^ gpuscale +v4\.0 +< ' && ok "8: '<' marks the tabs off the left" ||
	nok "8: '<' marks the tabs off the left" "$(head -n 1 "$UI_SCREEN")"
ui_keys q
ui_exit_code >/dev/null

# ---- a terminal that cannot move the cursor (item 11) ----
ui_start 80 24 "TERM=dumb"
ui_exits "TERM=dumb: refused with status 2" 2
ui_see "TERM=dumb: the message suggests --print" "use --print"
ui_stop

# ---- one system id under several submitters (v4.0's SMC results) ----
ui_start 120 40 "" "'$GS_TOP/data/mlperf_training_v4.0.csv'"
ui_see "v4.0 loads" "[BERT]"
ui_keys 9
ui_see "9: 3D-UNet" "[3D-UNet]"
ui_keys / s m c - d c Enter
ui_keys r
ui_see "r pins the smc-dc-power result by SUBMITTER/SYSTEM" "ref (pinned) smc-dc-power/"
ui_keys Enter
ui_see "the selection stays on the pinned submitter's row" "submitter     smc-dc-power"
ui_keys q q
ui_exit_code >/dev/null
ui_stop
