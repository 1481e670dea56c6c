#!/bin/sh
# The cross-round view pools each run list once: a row whose accelerators and runs are an
# earlier round's row's (a resubmission) is listed as carried over and counts in nothing. Checked
# on every bundled workload against the run lists tests/tools/carried_ref.py finds in data/ on its
# own, and on a small file with one known carried-over row.
. "$(dirname "$0")/../lib.sh"

# ---- a known carried-over row: Dell box-4 ran once, in v4.0, and v4.1 lists the same runs ----
F=$FIX/rounds/carried.csv
"$GPUSCALE" --all-rounds -w retinanet --print table,summary "$F" >"$TMP/all" 2>&1
grep -E '^- +[a-z] v4\.1 +Dell +box-4 ' "$TMP/all" >"$TMP/line"
if grep -Eq ' - +c +[0-9.]+%$' "$TMP/line"; then ok "v4.1 box-4 is listed: no rank, no cluster, marked c"
else nok "v4.1 box-4 is listed: no rank, no cluster, marked c" "$(cat "$TMP/all")"; fi
contains "the table's title counts it apart" "$TMP/all" "rows 5/5 +1 carried over"
contains "the summary names it and the row standing for it" "$TMP/all" \
	"carried over 1 shown (1 before filters), listed and counted in nothing"
contains "... with the round of each" "$TMP/all" "v4.1 Dell/box-4 (the runs of v4.0 Dell/box-4)"
contains "one candidate for its runs, v4.0's" "$TMP/all" \
	"over 2 candidates of the fewest accelerators: v4.1 Acme/slow-4 (110.00 min) -> 16+, v4.0 Dell/box-4 (100.00 min) -> 16+"
contains "the Pareto frontier holds its runs once" "$TMP/all" "pareto      3: v4.1 big-16 (N=16), v4.0 mid-8 (N=8), v4.0 box-4 (N=4)"
contains "the reference is named with its round" "$TMP/all" "reference   v4.1 Acme/slow-4 (N=4, 110.00 min)"
# the same runs on 8 accelerators are another measurement
if grep -Eq '^5 +[a-z] v4\.1 +Acme +box-4x2 .* 2 +[0-9.]+%$' "$TMP/all"; then ok "the same runs on other accelerators stand"
else nok "the same runs on other accelerators stand" "$(grep box-4x2 "$TMP/all")"; fi
"$GPUSCALE" --all-rounds -w retinanet --print csv "$F" >"$TMP/csv"
if grep -q '^,v4\.1,retinanet,Dell,box-4,' "$TMP/csv" && [ "$(grep -c '^[1-5],' "$TMP/csv")" = 5 ]; then
	ok "--print csv: no rank for it, the others ranked 1..5"
else nok "--print csv: no rank for it, the others ranked 1..5" "$(cut -c1-60 "$TMP/csv")"; fi
"$GPUSCALE" --all-rounds -w retinanet --print summary --format json "$F" >"$TMP/json"
contains "JSON: the counts" "$TMP/json" '"rows_carried_over": 1'
tr -d ' \n' <"$TMP/json" >"$TMP/json1"
contains "JSON: the row it repeats" "$TMP/json1" '"carried_over":[{"round":"v4.1","submitter":"Dell","system":"box-4","family":"H100SXM","accelerators":4,"minutes":100.0,"carried_over_of":{"round":"v4.0","submitter":"Dell","system":"box-4"}}]'
# pinned to a carried-over row: it stays the reference, and says whose runs it has
"$GPUSCALE" --all-rounds -w retinanet -m pinned -r box-4 --print summary "$F" >"$TMP/pin" 2>&1
contains "a pinned carried-over reference names the row standing for it" "$TMP/pin" \
	"reference   v4.1 Dell/box-4 (N=4, 100.00 min, carried over: the runs of v4.0 Dell/box-4, pinned)"
# a query answers from each run list once, and names the row with its round
"$GPUSCALE" --all-rounds -w retinanet --print query --deadline 200 --minimize acc-hours "$F" >"$TMP/q" 2>&1
contains "query: 5 rows, not 6" "$TMP/q" "H100 SXM: 5 of 5 rows meet it"
contains "query: the answer with its round" "$TMP/q" "observed  v4.0 box-4 (N=4)"
# one round pools its own rows: v4.1 alone counts box-4, and single-round output keeps its words
"$GPUSCALE" --round v4.1 -w retinanet --print table,summary "$F" >"$TMP/one" 2>&1
contains "one round: every row counts" "$TMP/one" "rows 4/4"
lacks "one round: nothing is carried over in it" "$TMP/one" "carried over"

# ---- every bundled workload: no run list counted twice in any pooled analysis ----
if ! command -v python3 >/dev/null 2>&1; then skip "bundled cross-round views" "python3 not found"; exit 0; fi
# each workload with its newest round: from there -w names it (from v5.1, -w dlrm is DLRM-DCNv2)
for f in "$GS_TOP"/data/mlperf_training_v*.csv; do
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "round") r = i; if ($i == "benchmark") b = i }; next }
		{ gsub(/"[^"]*"/, "q") } r && b && $b != "" { print $b, $r }' "$f"
done | sort -u -k1,1 -k2,2V | awk '{ last[$1] = $2 } END { for (w in last) print w, last[w] }' | sort >"$TMP/wls"
nw=$(wc -l <"$TMP/wls" | tr -d ' ')
if [ "$nw" -ge 10 ]; then ok "$nw bundled workloads to check"; else nok "the bundled workloads" "only $nw"; fi
total=0
while read -r wl rd; do
	set -- --all-rounds --round "$rd" -w "$wl"
	"$GPUSCALE" --print csv "$@" >"$TMP/v.csv" 2>/dev/null
	"$GPUSCALE" --print summary,fit --format json "$@" -m family >"$TMP/f.json" 2>/dev/null
	"$GPUSCALE" --print summary --format json "$@" -m paper >"$TMP/p.json" 2>/dev/null
	"$GPUSCALE" --print clusters "$@" >"$TMP/c.txt" 2>/dev/null
	if python3 "$GS_TOP/tests/tools/carried_ref.py" "$GS_TOP/data" "$TMP/v.csv" "$TMP/f.json" \
		"$TMP/p.json" "$TMP/c.txt" >"$TMP/ref" 2>&1; then
		ok "$wl across rounds (from $rd): each run list pooled once $(tail -n 1 "$TMP/ref")"
	else
		nok "$wl across rounds: each run list pooled once" "$(head -n 12 "$TMP/ref")"
	fi
	total=$((total + $(sed -n 's/.* \([0-9]*\) carried over)$/\1/p' "$TMP/ref" | tail -n 1)))
done <"$TMP/wls"
# 23 of RetinaNet's 228 rows, 45 of BERT's 263, ... (the loader's count of rows with an earlier
# round's runs, less those a view does not pool)
if [ "$total" -gt 100 ]; then ok "$total carried-over rows found in the bundled data"
else nok "carried-over rows found in the bundled data" "only $total"; fi
