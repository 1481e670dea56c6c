# Hostile import trees: systems JSON that is empty, truncated, deeply nested or has numbers
# where strings belong; logs with no run_stop, two run_starts, run_stop before run_start;
# and a tree of 100,000 logs under a small file-descriptor limit.
. "$GS_TOP/tests/lib.sh"
T="$TMP/training_results_vH"
S="$T/Sub"
mkdir -p "$S/systems"

sysjson() { # name nodes per_node model
	printf '{"submitter": "Sub", "division": "closed", "status": "available", "system_name": "%s",\n "number_of_nodes": "%s", "accelerators_per_node": "%s",\n "accelerator_model_name": "%s", "framework": "fw"}\n' "$1" "$2" "$3" "$4" >"$S/systems/$1.json"
}
# log FILE START_MS STOP_MS [extra start]: one run; an empty STOP_MS leaves run_stop out
log() {
	f=$1 start=$2 stop=$3 extra=${4:-}
	mkdir -p "$(dirname "$f")"
	{
		printf ':::MLLOG {"namespace": "", "time_ms": %s, "event_type": "POINT_IN_TIME", "key": "cache_clear", "value": true, "metadata": {"file": "t.py", "lineno": 1}}\n' "$((start - 1000))"
		printf '0: :::MLLOG {"namespace": "", "time_ms": %s, "event_type": "INTERVAL_START", "key": "run_start", "value": null, "metadata": {"file": "t.py", "lineno": 2}}\n' "$start"
		[ -n "$extra" ] && printf ':::MLLOG {"namespace": "", "time_ms": %s, "event_type": "INTERVAL_START", "key": "run_start", "value": null, "metadata": {"file": "t.py", "lineno": 2}}\n' "$extra"
		[ -n "$stop" ] && printf '   :::MLLOG {"namespace": "", "time_ms": %s, "event_type": "INTERVAL_END", "key": "run_stop", "value": null, "metadata": {"file": "t.py", "lineno": 3, "status": "success"}}\n' "$stop"
	} >"$f"
}
sysjson good 1 8 "NVIDIA H100-SXM5-80GB"
R="$S/results/good"
log "$R/bert/result_0.txt" 1000000 1600000            # 10 min
log "$R/bert/result_1.txt" 1000000 1720000            # 12 min
log "$R/bert/result_2.txt" 1000000 1660000            # 11 min
log "$R/bert/result_3.txt" 1000000 1600000 1060000    # two run_starts: the first counts, 10 min
log "$R/ssd/result_0.txt" 1000000 2200000             # 20 min
log "$R/ssd/result_1.txt" 1000000 2320000             # 22 min
log "$R/ssd/result_2.txt" 2000000 1000000             # run_stop before run_start
log "$R/gnn/result_0.txt" 1000000 2800000
log "$R/gnn/result_1.txt" 1000000 ""                  # no run_stop
log "$R/gnn/result_2.txt" 5000000 1000000
# rawlog FILE START_MS STOP_MS: one run with the times as written (any JSON number)
rawlog() {
	mkdir -p "$(dirname "$1")"
	printf ':::MLLOG {"time_ms": %s, "key": "run_start", "metadata": {}}\n   :::MLLOG {"time_ms": %s, "key": "run_stop", "metadata": {"status": "success"}}\n' "$2" "$3" >"$1"
}
log "$R/dlrm_dcnv2/result_0.txt" 1000000 1600000
log "$R/dlrm_dcnv2/result_1.txt" 1000000 1660000
log "$R/dlrm_dcnv2/result_3.txt" 1000000 1720000
rawlog "$R/dlrm_dcnv2/result_2.txt" -1e308 1e308         # each finite, the length infinite
log "$R/gpt3/result_0.txt" 1000000 1600000
log "$R/gpt3/result_1.txt" 1000000 1660000
log "$R/gpt3/result_2.txt" 1000000 1720000
rawlog "$R/gpt3/result_3.txt" 0 1e-320                   # the length underflows to 0 minutes
log "$R/resnet/result_0.txt" 1000000 1600000
log "$R/resnet/result_1.txt" 1000000 1660000
log "$R/resnet/result_2.txt" 1000000 1720000
printf '{"scaling_factor": 1.5e308}\n' >"$R/resnet/scaling.json"   # 11 min x 1.5e308 overflows
# finite lengths far outside any training: written so that they read back, in full rows
for r in 0 1 2; do rawlog "$R/huge/result_$r.txt" 0 1e308; done        # 1.67e303 minutes
for r in 0 1 2; do rawlog "$R/tiny/result_$r.txt" 0 0.00$((r + 1)); done  # 1.67e-8.. minutes
# subnormal minutes and factors: no text of them reads back, so no row is written for them
for r in 0 1 2; do rawlog "$R/subnormal/result_$r.txt" 0 1e-305; done     # 1.67e-310 minutes
for r in 0 1 2; do log "$R/sfsub/result_$r.txt" 1000000 1600000; done
printf '{"scaling_factor": 1e-320}\n' >"$R/sfsub/scaling.json"
for r in 0 1 2; do rawlog "$R/prodsub/result_$r.txt" 0 6e-9; done        # 1e-13 minutes
printf '{"scaling_factor": 1e-300}\n' >"$R/prodsub/scaling.json"          # x 1e-300: subnormal
sysjson huge_nodes 1 8 "NVIDIA H100-SXM5-80GB"
sed 's/"number_of_nodes": "1"/"number_of_nodes": 1e400/' "$S/systems/huge_nodes.json" >"$TMP/j" &&
	mv "$TMP/j" "$S/systems/huge_nodes.json"
for r in 0 1 2; do log "$S/results/huge_nodes/bert/result_$r.txt" 1000000 1600000; done
: >"$S/systems/empty.json"
printf '{"number_of_nodes": "1", "accelerators_' >"$S/systems/truncated.json"
head -c 10000 /dev/zero | tr '\0' '[' >"$S/systems/nested.json"
printf '{"submitter": "Sub", "division": "closed", "status": "available", "system_name": 7,\n "number_of_nodes": 2, "accelerators_per_node": 4, "accelerator_model_name": ["x"], "framework": null}\n' >"$S/systems/numbers.json"
for s in empty truncated nested numbers; do
	for r in 0 1 2; do log "$S/results/$s/bert/result_$r.txt" 1000000 1600000; done
done

"$GPUSCALE" import -o "$TMP/h.csv" "$T" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && ok "hostile tree imports (exit 0)" || nok "hostile tree imports" "exit $rc" "$(head -c 600 "$TMP/err")"
contains "two run_starts: the first counts (olympic mean of 10,10,11,12 drops one each end)" "$TMP/h.csv" ",bert,10.500000,4,0,"
contains "run_stop before run_start fails the run, named with line and column" "$TMP/err" "ssd/result_2.txt:3:42: run fails: run_stop is before run_start"
contains "one failed run counts as the dropped slowest" "$TMP/h.csv" ",retinanet,22.000000,2,1,"
contains "no run_stop fails the run, named" "$TMP/err" "gnn/result_1.txt: run fails: no run_stop event"
contains "two failed runs of three: no score, with the reason" "$TMP/err" "no score: Sub/good/gnn:"
contains "a run of infinite length fails, named with its line and column" "$TMP/err" \
	"dlrm_dcnv2/result_2.txt:2:25: run fails: run time from time_ms -1e+308 to 1e+308 is not a finite positive number of minutes"
contains "a run of 0 minutes (underflow) fails, named with its line and column" "$TMP/err" \
	"gpt3/result_3.txt:2:25: run fails: run time from time_ms 0 to 9.99989e-321 is not a finite positive number of minutes"
contains "a score that overflows with its scaling factor is no score, with the reason" "$TMP/err" \
	"no score: Sub/good/resnet: score is not a finite positive number of minutes (mean 11 x scaling_factor 1.5e+308)"
contains "the failed run counts as the dropped slowest" "$TMP/h.csv" ",dlrm_dcnv2,11.500000,3,1,1,10.0000;11.0000;12.0000"
contains "so does the run of 0 minutes" "$TMP/h.csv" ",gpt3,11.500000,3,1,1,10.0000;11.0000;12.0000"
if grep -Eiq '(^|[,;])[+-]?(inf|nan)' "$TMP/h.csv"; then
	nok "no infinite or NaN number is written" "$(grep -Ei '(^|[,;])[+-]?(inf|nan)' "$TMP/h.csv")"
else
	ok "no infinite or NaN number is written"
fi
if awk -F, 'NF != 28 { exit 1 }' "$TMP/h.csv"; then ok "every CSV line has the 28 fields of the header"; else nok "every CSV line has the 28 fields of the header" "$(awk -F, 'NF != 28' "$TMP/h.csv" | cut -c1-300)"; fi
contains "a huge score reads back exactly" "$TMP/h.csv" ",huge,1.6666666666666665e+303,3,0,1,1.6666666666666665e+303;1.6666666666666665e+303;1.6666666666666665e+303"
contains "a tiny one too, never as 0" "$TMP/h.csv" ",tiny,3.3333333333333334e-08,3,0,1,1.6666666666666667e-08;3.3333333333333334e-08;5.0000000000000004e-08"
contains "a subnormal run time is refused, the log named" "$TMP/err" \
	"subnormal/result_0.txt: run time 1.67e-310 minutes is below 2.23e-308, the least a results CSV holds; no score for this benchmark"
contains "a subnormal scaling factor is refused, its file named" "$TMP/err" \
	"sfsub/scaling.json: \"scaling_factor\" 1e-320 is below 2.23e-308"
contains "a score that underflows with its scaling factor is no score, with the reason" "$TMP/err" \
	"no score: Sub/good/prodsub: score is not a finite positive number of minutes"
for b in subnormal sfsub prodsub; do lacks "no row for $b" "$TMP/h.csv" ",$b,"; done
"$GPUSCALE" --print csv "$TMP/h.csv" >/dev/null 2>"$TMP/lerr"
lacks "the loader takes every row the importer wrote" "$TMP/lerr" "row skipped"
lacks "the loader drops no run the importer wrote" "$TMP/lerr" "runs ignored"
contains "an empty systems JSON is named" "$TMP/err" "systems/empty.json"
contains "a truncated systems JSON is named with its line and column" "$TMP/err" "systems/truncated.json:1:"
contains "a deeply nested systems JSON is named" "$TMP/err" "systems/nested.json"
contains "numbers where strings belong: counts accepted" "$TMP/h.csv" "Sub,numbers,"
contains "numbers where strings belong: N = 2 x 4" "$TMP/h.csv" ",2,4,8,"
contains "text fields that are not strings are named" "$TMP/err" "systems/numbers.json"
for s in empty truncated nested; do
	if grep -q "Sub,$s," "$TMP/h.csv"; then nok "unusable $s.json gives no row"; else ok "unusable $s.json gives no row"; fi
done

if command -v python3 >/dev/null 2>&1; then
	check "the reference scorer agrees on the hostile tree, column by column" \
		python3 "$GS_TOP/tests/tools/score_ref.py" "$T" "$TMP/h.csv"
else
	skip "the reference scorer agrees on the hostile tree" "python3 not installed"
fi

# 100,000 logs with at most 64 open files: the importer never holds more than a few.
B="$TMP/training_results_vB"
mkdir -p "$B/Big/systems"
printf '{"submitter": "Big", "division": "closed", "status": "available", "system_name": "s",\n "number_of_nodes": "1", "accelerators_per_node": "8", "accelerator_model_name": "NVIDIA H100-SXM5-80GB", "framework": "fw"}\n' >"$B/Big/systems/s.json"
# the 1000 folders in one mkdir (a process per folder took most of a minute on a loaded machine)
mkdir -p "$B/Big/results/s" && (cd "$B/Big/results/s" && awk 'BEGIN { for (b = 0; b < 1000; b++) print "bench" b }' | xargs mkdir)
awk -v root="$B/Big/results/s" 'BEGIN {
	for (b = 0; b < 1000; b++) {
		d = root "/bench" b
		for (r = 0; r < 100; r++) {
			f = d "/result_" r ".txt"; t = 60000 * (10 + r % 7)
			print ":::MLLOG {\"time_ms\": 1000, \"key\": \"run_start\", \"metadata\": {}}" > f
			print ":::MLLOG {\"time_ms\": " 1000 + t ", \"key\": \"run_stop\", \"metadata\": {\"status\": \"success\"}}" > f
			close(f)
		}
	}
}'
n=$(find "$B" -name 'result_*.txt' | wc -l)
[ "$n" -eq 100000 ] && ok "made a tree of 100,000 logs" || nok "made a tree of 100,000 logs" "got $n"
(ulimit -n 64 && "$GPUSCALE" import -o "$TMP/b.csv" "$B") >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && ok "100,000 logs import with ulimit -n 64" || nok "100,000 logs import with ulimit -n 64" "exit $rc" "$(tail -c 600 "$TMP/err")"
rows=$(($(wc -l <"$TMP/b.csv") - 1))
[ "$rows" -eq 1000 ] && ok "one row per benchmark (1000)" || nok "one row per benchmark (1000)" "got $rows"
contains "final line counts every log" "$TMP/err" "100000 logs"
# removed now, before the system writes its files back: removing them once written took minutes
rm -rf "$B"
# One descriptor to spare, on one processor: the folder a scanning thread keeps open for its logs
# would take it, so the logs are then opened by their paths, and the import is the same.
if command -v taskset >/dev/null 2>&1; then
	V="$GS_TOP/tests/fixtures/import/training_results_vT"
	taskset -c 0 "$GPUSCALE" import -o "$TMP/free.csv" "$V" >/dev/null 2>"$TMP/free.err"
	# descriptor 3 (the test runner's lock, say) is closed first: the limit leaves it alone free
	(exec 3>&- && ulimit -n 4 && exec taskset -c 0 "$GPUSCALE" import -o "$TMP/short.csv" "$V") \
		>/dev/null 2>"$TMP/short.err"
	rc=$?
	sed "s#$TMP/short.csv#$TMP/free.csv#" "$TMP/short.err" >"$TMP/short.err2"
	if [ $rc -eq 0 ] && cmp -s "$TMP/free.csv" "$TMP/short.csv" && cmp -s "$TMP/free.err" "$TMP/short.err2"; then
		ok "one spare descriptor: the same CSV and messages"
	else
		nok "one spare descriptor: the same CSV and messages" "exit $rc" "$(diff "$TMP/free.err" "$TMP/short.err2" | head -c 600)"
	fi
else
	skip "one spare descriptor" "taskset missing"
fi
