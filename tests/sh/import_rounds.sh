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

# ---- older rounds: their rules of the day, their log formats ----
# mllog_v21 FILE MINUTES [KEY]: a v2.1 closed BERT log with every key 2.1's checker asked for
# (opt_epsilon, as v2.1 logs have it: today's 2.1.0 list says opt_lamb_epsilon), KEY left out
mllog_v21() {
	f=$1 min=$2 skip=${3:-}
	{
		echo ':::MLLOG {"time_ms": 1660000000000, "key": "init_start", "value": null}'
		for k in cache_clear eval_samples submission_division submission_org submission_platform \
			submission_status train_samples gradient_accumulation_steps submission_benchmark \
			global_batch_size num_warmup_steps opt_base_learning_rate opt_lamb_beta_1 \
			opt_lamb_beta_2 opt_epsilon opt_lamb_weight_decay_rate opt_learning_rate_training_steps \
			opt_learning_rate_warmup_steps start_warmup_step weights_initialization; do
			[ "$k" = "$skip" ] || echo ":::MLLOG {\"time_ms\": 1660000000001, \"key\": \"$k\", \"value\": 1}"
		done
		echo ':::MLLOG {"time_ms": 1660000060000, "key": "init_stop", "value": null}'
		echo ':::MLLOG {"time_ms": 1660000060001, "key": "run_start", "value": null}'
		echo ':::MLLOG {"time_ms": 1660000060002, "key": "eval_accuracy", "value": 0.72, "metadata": {"epoch_num": 1}}'
		echo ":::MLLOG {\"time_ms\": $((1660000060001 + min * 60000)), \"key\": \"run_stop\", \"value\": null, \"metadata\": {\"status\": \"success\"}}"
	} >"$f"
}
V21="$TMP/training_results_v2.1"
mkdir -p "$V21/Acme/systems" "$V21/Acme/results/box/bert"
printf '{"submitter": "Acme", "division": "closed", "status": "available", "system_name": "box", "number_of_nodes": "1", "accelerators_per_node": "8", "accelerator_model_name": "NVIDIA A100-SXM4-80GB", "framework": "PyTorch"}\n' \
	>"$V21/Acme/systems/box.json"
for i in 0 1 2 3 4 5 6 7 8 9; do mllog_v21 "$V21/Acme/results/box/bert/result_$i.txt" $((20 + i)); done
expect_exit "a v2.1 BERT tree whose logs have opt_epsilon imports" 0 "$GPUSCALE" import -o "$TMP/v21.csv" "$V21"
lacks "no log is said to lack opt_lamb_epsilon, a key v2.1's rule did not name" "$TMP/err" "opt_lamb_epsilon"
lacks "and no key is warned of at all" "$TMP/err" "compliance"
mllog_v21 "$V21/Acme/results/box/bert/result_3.txt" 23 opt_epsilon
expect_exit "a v2.1 BERT log without opt_epsilon still imports (before 3.0.0 only a warning)" 0 \
	"$GPUSCALE" import --force -o "$TMP/v21.csv" "$V21"
contains "the warning names the key of the day, and says the list is today's" "$TMP/err" \
	"bert/result_3.txt: compliance: 'opt_epsilon' is missing; today's key list for ruleset 2.1.0 requires it exactly once (counted: before 3.0.0 the check only warns, the round's own list may differ)"

# v0.5 and v0.6 trees: one message naming the log format, not "no MLLOG events" in every log
for v in 0.5 0.6; do
	T="$TMP/training_results_v$v"
	mkdir -p "$T/Acme/systems" "$T/Beta/systems" "$T/Acme/results/box/resnet" "$T/Beta/results/big/resnet"
	printf '{"submitter": "Acme", "division": "closed", "system_name": "box", "number_of_nodes": "1", "accelerators_per_node": "8", "accelerator_model_name": "Tesla V100-SXM2-16GB"}\n' >"$T/Acme/systems/box.json"
	sed 's/Acme/Beta/; s/box/big/' "$T/Acme/systems/box.json" >"$T/Beta/systems/big.json"
	for i in 0 1 2 3 4; do
		for d in "$T/Acme/results/box/resnet" "$T/Beta/results/big/resnet"; do
			if [ $v = 0.5 ]; then
				printf ':::MLPv0.5.0 resnet 1541710788.720798969 (resnet/imagenet_main.py:12) run_start\n:::MLPv0.5.0 resnet 1541714388.720798969 (resnet/imagenet_main.py:99) run_final\n' >"$d/result_$i.txt"
			else
				printf ':::MLL 1558640001.000 run_start: {"value": null, "metadata": {"file": "x.py", "lineno": 2}}\n:::MLL 1558643601.000 run_stop: {"value": null, "metadata": {"file": "x.py", "lineno": 3, "status": "success"}}\n' >"$d/result_$i.txt"
			fi
		done
	done
	expect_exit "a v$v tree: nothing imported, exit 2" 2 "$GPUSCALE" import -o "$TMP/old.csv" "$T"
	contains "v$v: one message naming the format" "$TMP/err" "its 10 result logs are in the v$v log format (:::ML"
	lacks "v$v: never 'no MLLOG events'" "$TMP/err" "no MLLOG events"
	if [ "$(wc -l <"$TMP/err")" -eq 1 ]; then ok "v$v: that one line only"
	else nok "v$v: that one line only" "$(head -c 600 "$TMP/err")"; fi
done
# one v0.6 log among MLLOG logs: one warning for it, naming the format
cp "$TMP/training_results_v0.6/Acme/results/box/resnet/result_0.txt" "$V21/Acme/results/box/bert/result_9.txt"
expect_exit "a v0.6 log among v2.1 logs: the rest imports" 0 "$GPUSCALE" import --force -o "$TMP/v21.csv" "$V21"
contains "... and one warning names its format" "$TMP/err" \
	"warning: 1 result log is in the v0.6 log format (:::MLL <unix seconds> <key>: <json>), which gpuscale does not read"

# the bundled data: eight rounds, every accelerator in a family
expect_exit "the bundled rounds load" 0 "$GPUSCALE" --print summary
lacks "no 'unknown family' warning on the bundled data" "$TMP/err" "no family rule matches"
contains "the newest round opens first" "$TMP/out" "round v5.1"
n=$(ls "$GS_TOP"/data/mlperf_training_v*.csv | wc -l | tr -d ' ')
if [ "$n" -eq 8 ]; then ok "eight rounds are shipped"; else nok "eight rounds are shipped" "got $n"; fi

echo "1..$n_"
