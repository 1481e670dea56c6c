#!/bin/sh
# Which bundled rounds a --print report reads: a report of one round reads that round alone
# (newest first until the workload is found) and says exactly what it says with every round
# loaded; the table, the CSV, the trend, --all-rounds and --strict read every round; a bundled
# file holding another round than its name says makes the load read them all.
. "$(dirname "$0")/../lib.sh"

D="$GS_TOP/data"
set -- "$D"/mlperf_training_v*.csv
nfiles=$#
if [ "$nfiles" -ge 8 ]; then ok "$nfiles bundled rounds to read"; else nok "eight bundled rounds" "found $nfiles"; fi
ALL="$*"

# same_as_all DESC ARGS...: the report over the data folder (one round read) equals the one
# over every bundled file named (all read): standard output, standard error and status.
same_as_all() {
	d=$1; shift
	"$GPUSCALE" "$@" >"$TMP/lazy" 2>&1; echo "status $?" >>"$TMP/lazy"
	# shellcheck disable=SC2086
	"$GPUSCALE" "$@" $ALL >"$TMP/eager" 2>&1; echo "status $?" >>"$TMP/eager"
	if cmp -s "$TMP/lazy" "$TMP/eager"; then ok "$d"
	else nok "$d" "$(diff "$TMP/eager" "$TMP/lazy" | head -8)"; fi
}

for f in "$D"/mlperf_training_v*.csv; do
	r=$(basename "$f" .csv); r=${r#mlperf_training_}
	same_as_all "$r: summary, fit, sensitivity, pareto, clusters, plot as with every round loaded" \
		--round "$r" --print summary,fit,sensitivity,pareto,clusters,plot
	same_as_all "$r: the JSON summary, fit, query and predict as with every round loaded" \
		--round "$r" --format json --print summary,fit,query,predict --predict 64 --deadline 60
done
for w in minigo rnnt resnet bert retinanet BERT ssd; do
	same_as_all "-w $w (the newest round with it): the summary as with every round loaded" \
		-w "$w" --print summary,query --deadline 90
done
same_as_all "an unknown workload: the same error" -w nosuch --print summary
same_as_all "an unknown round: the same error" --round v9.9 --print summary
same_as_all "a round in other case: the same round" --round V4.0 --print summary

# A folder whose v2.1 cannot be read: the reports of one newer round never open it.
B="$TMP/broken"
mkdir -p "$B" || exit 1
for f in "$D"/mlperf_training_v*.csv "$D/families.csv" "$D/prices.csv"; do ln -s "$f" "$B/"; done
rm "$B/mlperf_training_v2.1.csv"
printf 'not,a,results,file\n1,2,3,4\n' >"$B/mlperf_training_v2.1.csv"
GPUSCALE_DATA=$B "$GPUSCALE" --print summary >"$TMP/out" 2>"$TMP/err"; st=$?
"$GPUSCALE" --print summary >"$TMP/want" 2>/dev/null
if [ "$st" -eq 0 ] && cmp -s "$TMP/out" "$TMP/want"; then ok "--print summary reads the newest round alone"
else nok "--print summary reads the newest round alone" "status $st" "$(head -c 400 "$TMP/err")"; fi
GPUSCALE_DATA=$B expect_exit "-w bert (newest in v5.0) never reads v2.1" 0 "$GPUSCALE" -w bert --print fit
GPUSCALE_DATA=$B expect_exit "-w minigo (newest in v2.1) reads v2.1, which cannot be read" 2 "$GPUSCALE" -w minigo --print fit
contains "... and the error names it" "$TMP/err" "mlperf_training_v2.1.csv"
for args in "--print table" "--print csv" "--print summary,table" "-w bert --print trend" \
	"-w retinanet --all-rounds --print summary" "--strict --print summary"; do
	# shellcheck disable=SC2086
	GPUSCALE_DATA=$B expect_exit "$args reads every round" 2 "$GPUSCALE" $args
	contains "... and names the one that cannot be read" "$TMP/err" "mlperf_training_v2.1.csv"
done

# A file named for one round holding another: every file is read, as the names cannot be trusted.
M="$TMP/misnamed"
mkdir -p "$M" || exit 1
ln -s "$D/families.csv" "$D/prices.csv" "$D/mlperf_training_v5.0.csv" "$M/"
ln -s "$D/mlperf_training_v4.1.csv" "$M/mlperf_training_v9.9.csv"
GPUSCALE_DATA=$M "$GPUSCALE" --print summary,fit >"$TMP/out" 2>&1; echo "status $?" >>"$TMP/out"
"$GPUSCALE" --print summary,fit "$D/mlperf_training_v4.1.csv" "$D/mlperf_training_v5.0.csv" >"$TMP/want" 2>&1
echo "status $?" >>"$TMP/want"
if cmp -s "$TMP/out" "$TMP/want"; then ok "a misnamed bundled file: every file read, the newest round by its rows"
else nok "a misnamed bundled file: every file read" "$(diff "$TMP/want" "$TMP/out" | head -8)"; fi
contains "... which is v5.0, not the name's v9.9" "$TMP/out" "round v5.0"

echo "1..$n_"
