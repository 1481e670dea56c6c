#!/bin/sh
# Several rounds loaded: the newest opens first, whatever the order of the files; [ and ] switch
# between them keeping the workload, and say so when the other round lacks it; a results CSV
# of one's own (few columns, a bad row) opens with the load warning on the status bar.
. "$(dirname "$0")/../lib.sh"
. "$GS_TOP/tests/ui/tmux.sh"

if ! ui_have_tmux; then skip "explorer in tmux" "tmux not installed"; exit 0; fi

ui_start 100 30 "" "'$GS_TOP/data/mlperf_training_v4.1.csv'" "'$GS_TOP/data/mlperf_training_v4.0.csv'"
ui_see "two rounds: the header counts them" "/2)"
r1=$(grep -o 'v4\.[01] ([12]/2)' "$UI_SCREEN" | head -n 1)
ui_keys Tab
ui_wait "[Llama2"
ui_keys ']'
ui_wait_gone "$r1"
r2=$(grep -o 'v4\.[01] ([12]/2)' "$UI_SCREEN" | head -n 1)
if [ -n "$r2" ] && [ "$r2" != "$r1" ]; then ok "]: the other round ($r1 -> $r2)"; else nok "]: the other round" "'$r1' -> '$r2'"; fi
ui_see "the workload is kept" "[Llama2-LoRA]"
ui_see "the status bar follows" " ${r2%% *} Llama2-LoRA "
ui_keys '['
ui_see "[: back" "$r1"
ui_keys q
ui_exit_code >/dev/null

for order in "v4.0 v4.1" "v4.1 v4.0"; do
	set -- $order
	ui_start 100 30 "" "'$GS_TOP/data/mlperf_training_$1.csv'" "'$GS_TOP/data/mlperf_training_$2.csv'"
	ui_see "files $1 then $2: the newest round (v4.1) opens" "v4.1 (2/2)"
	ui_keys q
	ui_exit_code >/dev/null
done
# v4.0 has ResNet, v4.1 has not: ] says so and shows the first workload
ui_start 100 30 "" "'$GS_TOP/data/mlperf_training_v4.0.csv'" "'$GS_TOP/data/mlperf_training_v4.1.csv'"
ui_wait "v4.1 (2/2)"
ui_keys '['
ui_see "[: the older round" "v4.0 (1/2)"
ui_press_until Tab "[ResNet]" 12
ui_see "v4.0: ResNet" "[ResNet]"
ui_keys ']'
ui_see "]: v4.1 has no ResNet, and says so" "v4.1 has no ResNet: showing BERT"
ui_see "]: BERT shown" "[BERT]"
ui_keys q
ui_exit_code >/dev/null

# ---- no file: the eight bundled rounds, the newest first ----
ui_start 100 30 ""
ui_see "no file: the newest bundled round opens" "v5.1 (8/8)"
ui_see "no file: on its first workload" "[Llama2-LoRA]"
# the detail traces the numbers to the results tree and each run's log (theia, found by name:
# in family mode the first row is another family's)
ui_keys /
ui_keys -l theia_ngpu8_
ui_keys Enter
ui_see "/theia_ngpu8_: one match" "match 1/1"
ui_keys Enter
ui_see "detail: the benchmark folder in the results tree" "results tree  NVIDIA/results/theia_ngpu8_ngc25.09_nemo/llama2_70b_lora"
ui_press_until j "result_6.txt"
ui_see "detail: the slowest run's log file, dropped" "dropped (slowest)  result_6.txt"
ui_keys q
ui_wait_gone "detail: "
ui_keys '['
ui_see "[: v5.0, the workload kept" "v5.0 (7/8)"
ui_see "[: still Llama2-LoRA" "[Llama2-LoRA]"
ui_keys '[' '['
ui_see "[ [: v4.0" "v4.0 (5/8)"
ui_see "[ [: still Llama2-LoRA" "[Llama2-LoRA]"
# Llama2-70B-LoRA came in v4.0
ui_keys '['
ui_see "[: v3.1" "v3.1 (4/8)"
ui_see "[: v3.1 has no Llama2-LoRA, and says so" "v3.1 has no Llama2-LoRA"
ui_keys '[' '[' '['
ui_see "[ [ [: the oldest bundled round, v2.0" "v2.0 (1/8)"
ui_keys '['
ui_see "[ at the oldest round wraps to the newest" "v5.1 (8/8)"
ui_keys q
ui_exits "q exits 0"
# "H100 SXM Llama2-LoRA from v4.0 to v5.1": the family, then A
ui_start 100 60 "" -f "'H100 SXM'"
ui_see "-f H100 SXM on v5.1" "filter: H100 SXM"
ui_keys A
ui_see "A: the cross-round view" "cross-round view"
ui_see "the table has a round column" " round "
ui_keys z z
ui_wait "view: table only"
ui_see "the 45 rows of the four rounds: 44 pooled, 1 carried over" "44/167 rows +1 carried over"
# 60 lines hold the 45 rows whole
for r in v4.0 v4.1 v5.0 v5.1; do
	if grep -qE "^ *[0-9]+ +([a-l.] )?$r " "$UI_SCREEN"; then ok "cross-round view: rows of $r"
	else nok "cross-round view: rows of $r" "$(cat "$UI_SCREEN")"; fi
done
ui_keys z
ui_wait "view: plot and table"
# y reaches kWh and cost
ui_press_until y "y: kWh" 8
ui_see "y reaches kWh" "y: kWh"
ui_see "y: kWh says theta is E'-only" "plot: kWh (the theta line is on E' only)"
# (the legend's short form at 100 columns names it "cost": the message says it whole)
ui_press_until y "plot: cost" 8
ui_see "y reaches cost" "plot: cost"
ui_keys q
ui_exits "q exits 0"

# a clusters line too long for the width says how many clusters it leaves out
ui_start 80 24 "" -k 12
ui_wait "clusters: 1: "
if grep -Eq '^ clusters: 1: .*\| \+[0-9]+ more ~$' "$UI_SCREEN"; then ok "k=12 at 80 columns: the clusters line counts the clusters left out"
else nok "k=12 at 80 columns: the clusters line counts the clusters left out" "$(grep 'clusters:' "$UI_SCREEN")"; fi
ui_keys q
ui_exits "q exits 0"

# RetinaNet on H100 and A100 across rounds: v2.0 to v5.1 pool (the compatibility table), a
# v1.0 SSD-ResNet34 row (also published as `ssd`) never joins, and the notice names it
files=
for f in "$GS_TOP"/data/mlperf_training_v*.csv; do files="$files '$f'"; done
ui_start 120 50 "" $files "'$FIX/rounds/v1.0_ssd_rnnt.csv'" --round v3.1 -w retinanet -f "'H100 SXM'" -f "'A100 SXM'"
ui_wait "[RetinaNet]"
ui_keys A
ui_see "A: the cross-round view of RetinaNet" "cross-round view"
# the notice holds the last line once the message goes, before the cross-family warning
ui_see "the notice names the version left out" "SSD-RN34 v1.0: another benchmark published as ssd, not pooled"
ui_see "family mode (the default)" "ref: per family"
ui_keys m
ui_see "m: paper mode" "ref (paper)"
ui_see "the notice stays in paper mode" "SSD-RN34 v1.0: another benchmark published as ssd, not pooled"
ui_keys m
# H100 and A100 ran RetinaNet from v2.0 to v4.1 (none in v5.0 or v5.1): every one of them pools
ui_see "the legend names every round v2.0..v4.1 the rows come from" "a v2.0 b v2.1 c v3.0 d v3.1 e v4.0 f v4.1 "
if grep -q "v1\.0 " "$UI_SCREEN" || grep -q "dgxa100_n1_ssd" "$UI_SCREEN"; then
	nok "never the v1.0 SSD row" "$(cat "$UI_SCREEN")"
else ok "never the v1.0 SSD row"; fi
ui_see "98 H100/A100 rows of the 228: 89 pooled (of 205), 9 carried over" "89/205 rows +9 carried over"
ui_keys Enter
ui_see "the detail gives the row's span" "comparable    v2.0-v5.1 (MLCommons' compatibility table)"
ui_keys q
ui_wait_gone "comparable    v2.0"
# v2.1 lists dgxa100_ngc22.04_pytorch with v2.0's runs: no rank, no cluster, marked c
if grep -Eq '^ +- [a-z] v2\.1 +dgxa100_ngc22\.04_pytorch .* - +c *$' "$UI_SCREEN"; then
	ok "a carried-over row is listed: no rank, no cluster, c"
else nok "a carried-over row is listed: no rank, no cluster, c" "$(grep dgxa100_ngc22 "$UI_SCREEN")"; fi
ui_keys /
ui_keys -l dgxa100_ngc22.04_pytorch
ui_keys Enter
ui_see "/dgxa100_ngc22.04_pytorch: the v2.0 row and its v2.1 copy" "match 1/2"
ui_keys n
ui_keys Enter
ui_see "the detail names the row standing for it" \
	"carried over  the runs of v2.0 NVIDIA/dgxa100_ngc22.04_pytorch, which stands for them: listed, counted in nothing"
ui_keys q
ui_wait_gone "carried over  the runs"
ui_keys q
ui_exits "q exits 0"
# RNN-T from v3.1: v1.1 to v3.1 pool; v1.0 is another version
ui_start 120 40 "" $files "'$FIX/rounds/v1.0_ssd_rnnt.csv'" --round v3.1 -w rnnt --all-rounds
ui_see "the notice names RNN-T v1.0 as another version" "RNN-T v1.0: another version of the benchmark, not pooled"
ui_keys q
ui_exits "q exits 0"

# 80x24: v4.1 lists eos_n316 with v4.0's runs, carried over; the status line counts it apart
ui_start 80 24 "" --round v4.1 -w retinanet -f "'H100 SXM'" --all-rounds
ui_wait "[RetinaNet]"
ui_see "80x24: 60 H100 rows pooled, 5 carried over" "60/205 rows +5 carried over"
ui_keys /
ui_keys -l eos_n316
ui_keys Enter
ui_see "/eos_n316: v4.0's row and v4.1's" "match 1/2"
ui_keys n
ui_see "n: the second" "match 2/2"
if grep -Eq '^ +60 [a-z] v4\.0 +eos_n316_ngc24\.04_pytorch .* \*$' "$UI_SCREEN" &&
	grep -Eq '^ +- [a-z] v4\.1 +eos_n316_ngc24\.04_pytorch .* c$' "$UI_SCREEN"; then
	ok "80x24: v4.0's row ranked 60 on the frontier, v4.1's listed under it unranked, marked c"
else nok "80x24: v4.0's row ranked 60 on the frontier, v4.1's listed under it unranked, marked c" "$(cat "$UI_SCREEN")"; fi
ui_keys e
ui_see "e: the cross-round view exported" "exported ./gpuscale-all-rounds-retinanet-"
txt=$(ls "$TMP"/gpuscale-all-rounds-retinanet-*.txt 2>/dev/null | head -n 1)
if [ -n "$txt" ] && grep -q " 60/205 rows +5 carried over$" "$txt"; then
	ok "the export's header counts the carried-over rows apart"
else nok "the export's header counts the carried-over rows apart" "$(head -n 1 "$txt" 2>&1)"; fi
ui_keys q
ui_exits "q exits 0"

one_round v4.1
ui_start 100 30 ""
ui_wait "[BERT]"
ui_keys ']'
ui_see "one round: ] says so" "only one round loaded"
ui_keys q
ui_exit_code >/dev/null

printf 'round,system,benchmark,accelerators,minutes\nmine,a,job,1,100\nmine,b,job,2,55\nmine,c,job,4,30\nmine,d,job,x,4\n' >"$TMP/own.csv"
ui_start 100 30 "" -m paper "'$TMP/own.csv'"
ui_see "own CSV: the load warning is on the status bar" "load warning"
ui_see "it names file, line and column" "own.csv:5:"
ui_see "own CSV: reference by the paper rule" "ref (paper) a N=1 100.00 min"
ui_keys j
ui_see "own CSV: three rows (the message goes with the next key)" "3/3 rows"
ui_keys q
ui_exits "q exits 0"
ui_stop
