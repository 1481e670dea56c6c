#!/bin/sh
# Older and newer rounds: the importer on a v6.0-style tree written for the purpose (a
# deepseekv3_671b folder of 3 runs, a systems JSON spelling "number of nodes", a log missing a key
# the 6.0.0 checker requires, a CPU-only system, a systems JSON that does not parse), the
# compliance table against the checker's configuration, and the loader on what it gives.
. "$(dirname "$0")/../lib.sh"
TREE="$FIX/import/training_results_v6.0"

expect_exit "the v6.0 tree imports without a code change" 0 "$GPUSCALE" import -o "$TMP/v6.csv" "$TREE"
cp "$TMP/err" "$TMP/err.import"
contains "final line: 3 systems, 3 rows, 5 warnings, 1 skipped" "$TMP/err.import" "3 systems, 3 rows, 5 warnings, 1 skipped"
# deepseekv3_671b: runs of 100, 130 and 110 min; the olympic average keeps the middle one
contains "deepseekv3_671b of 3 runs scores their middle one" "$TMP/v6.csv" \
	"v6.0,Acme,gb300x8,gb300x8,closed,Available on-premise,NVIDIA GB300,1,8,8,PyTorch,deepseekv3_671b,110.000000,3,0,1,"
contains "a systems JSON spelling \"number of nodes\" is read, with a note" "$TMP/err.import" \
	"Acme/systems/gb300x8.json: note: field \"number of nodes\" read as \"number_of_nodes\""
# llama31_8b: 50, 60 (no opt_base_learning_rate) and 70 min: the failed run is the dropped slow
# one, the fastest goes, 70 is left
contains "a log missing a required key fails, named with the key" "$TMP/err.import" \
	"Beta/results/box8/llama31_8b/result_1.txt: run fails: compliance: 'opt_base_learning_rate' is missing; ruleset 6.0.0 requires it exactly once"
contains "and counts as a failed run (2 scored, 1 failed)" "$TMP/v6.csv" ",llama31_8b,70.000000,2,1,1,50.0000;70.0000,"
contains "a CPU-only system has 0 accelerators" "$TMP/v6.csv" "v6.0,Intel,cpu4,cpu4,closed,Available on-premise,N/A,4,0,0,"
contains "a systems JSON that cannot be used names every result folder it leaves unscored" "$TMP/err.import" \
	"Gamma/systems/broken.json: systems JSON cannot be used: no score for Gamma/results/broken/deepseekv3_671b, Gamma/results/broken/flux1"
if [ -f "$MLPERF/compliance_keys.csv" ] && command -v python3 >/dev/null 2>&1; then
	check "the reference scorer agrees on the v6.0 tree" env GS_COMPLIANCE_KEYS="$MLPERF/compliance_keys.csv" \
		python3 "$GS_TOP/tests/tools/score_ref.py" "$TREE" "$TMP/v6.csv"
	check "src/compliance_keys.c is what compliance_keys.csv gives" \
		python3 "$GS_TOP/tests/tools/compliance_gen.py" "$MLPERF/compliance_keys.csv" "$GS_TOP/src/compliance_keys.c"
else
	skip "the reference scorer agrees on the v6.0 tree" "$MLPERF/compliance_keys.csv or python3 is absent"
	skip "src/compliance_keys.c is what compliance_keys.csv gives" "$MLPERF/compliance_keys.csv or python3 is absent"
fi

# the loader: the CPU-only row loads, and the view leaves it out of E' with the reason
expect_exit "the imported CSV loads" 0 "$GPUSCALE" --print summary -w deepseekv3_671b "$TMP/v6.csv"
contains "the view shows the one row with accelerators" "$TMP/out" "rows        1 shown of 1"
contains "and names the CPU-only row it leaves out" "$TMP/out" "left out    1 CPU-only row (0 accelerators): no E', left out"
expect_exit "--print csv of the view" 0 "$GPUSCALE" --print csv -w deepseekv3_671b "$TMP/v6.csv"
lacks "the CPU-only row is not a row of the view" "$TMP/out" "cpu4"
lacks "no 'unknown family' warning for N/A" "$TMP/err" "no family rule matches"

# a pre-v2.0 `ssd` row is SSD-ResNet34, never RetinaNet
printf 'round,system,benchmark,accelerators,minutes\nv1.0,old,ssd,8,16.47\nv2.0,new,ssd,8,278.96\nv2.0,new8,ssd,16,150\n' >"$TMP/ssd.csv"
expect_exit "v1.0 and v2.0 ssd rows load" 0 "$GPUSCALE" --print summary --all-rounds -w retinanet --round v2.0 "$TMP/ssd.csv"
contains "v2.0 ssd is RetinaNet, pooled alone" "$TMP/out" "rows        2 shown of 2"
contains "the v1.0 SSD row is named as another benchmark" "$TMP/out" "SSD-RN34 v1.0: another benchmark published as ssd, not pooled"
expect_exit "--print csv of the cross-round RetinaNet view" 0 "$GPUSCALE" --print csv --all-rounds -w retinanet --round v2.0 "$TMP/ssd.csv"
lacks "never the v1.0 SSD row" "$TMP/out" "old"

# the bundled data: eight rounds, every accelerator in a family
expect_exit "the bundled rounds load" 0 "$GPUSCALE" --print summary
lacks "no 'unknown family' warning on the bundled data" "$TMP/err" "no family rule matches"
contains "the newest round opens first" "$TMP/out" "round v5.1"
n=$(ls "$GS_TOP"/data/mlperf_training_v*.csv | wc -l | tr -d ' ')
if [ "$n" -eq 8 ]; then ok "eight rounds are shipped"; else nok "eight rounds are shipped" "got $n"; fi

echo "1..$n_"
