#!/bin/sh
# Which bundled rounds a --print report reads: every one, always, whatever the report, the round
# or the workload; a report over the data folder says exactly what it says naming every bundled
# file, and a bundled round that cannot be read, or holds a bad row, shows in every report.
. "$(dirname "$0")/../lib.sh"

D="$GS_TOP/data"
set -- "$D"/mlperf_training_v*.csv
nfiles=$#
if [ "$nfiles" -ge 8 ]; then ok "$nfiles bundled rounds to read"; else nok "eight bundled rounds" "found $nfiles"; fi
ALL="$*"

# same_as_all DESC ARGS...: the report over the data folder equals the one over every bundled
# file named: standard output, standard error and status.
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

# folder NAME: a data folder under $TMP holding the tables and every bundled round (links).
folder() {
	mkdir -p "$TMP/$1" || exit 1
	for f in "$D"/mlperf_training_v*.csv "$D/families.csv" "$D/prices.csv"; do ln -sf "$f" "$TMP/$1/"; done
}

# A v2.1 that starts as v2.1 and breaks further in: every report reads it, so every one fails
# naming it, a report of a newer round or workload included.
folder late
rm "$TMP/late/mlperf_training_v2.1.csv"
{ cat "$D/mlperf_training_v2.1.csv"; printf 'v2.1,X,"never closed\n'; } >"$TMP/late/mlperf_training_v2.1.csv"
for args in "--print summary" "-w bert --print fit" "-w minigo --print fit" "--round v5.1 --print summary" \
	"--print table" "--print csv" "--print summary,table" "-w bert --print trend" \
	"-w retinanet --all-rounds --print summary" "--strict --print summary"; do
	# shellcheck disable=SC2086
	GPUSCALE_DATA=$TMP/late expect_exit "$args reads every round" 2 "$GPUSCALE" $args
	contains "... and names the one that cannot be read" "$TMP/err" "mlperf_training_v2.1.csv"
done

# A v2.1 broken from its first line: the error is the one reading them all gives.
folder broken
rm "$TMP/broken/mlperf_training_v2.1.csv"
printf 'not,a,results,file\n1,2,3,4\n' >"$TMP/broken/mlperf_training_v2.1.csv"
GPUSCALE_DATA=$TMP/broken expect_exit "a bundled file broken from its start: every round read" 2 "$GPUSCALE" --print summary
contains "... and the error names it" "$TMP/err" "mlperf_training_v2.1.csv:1: missing required column"

# A bad row of v2.0 is read by a report of another round too: warned of, and counted.
folder badrow
rm "$TMP/badrow/mlperf_training_v2.0.csv"
{ cat "$D/mlperf_training_v2.0.csv"
  # as many fields as the header, the 17th on empty
  head -n 1 "$D/mlperf_training_v2.0.csv" | awk -F, '{ s = "v2.0,X,Y,Z,closed,Available on-premise,acc,1,8,8,fw,minigo,notanumber,5,0,1"
	for (i = 17; i <= NF; i++) s = s ","; print s }'; } \
	>"$TMP/badrow/mlperf_training_v2.0.csv"
GPUSCALE_DATA=$TMP/badrow "$GPUSCALE" -w bert --print summary >"$TMP/out" 2>"$TMP/err"
contains "a bad row of v2.0 is counted in v5.0's summary" "$TMP/out" "skipped     1 bad row"
contains "... and warned of" "$TMP/err" "notanumber"
GPUSCALE_DATA=$TMP/badrow "$GPUSCALE" -w minigo --round v2.0 --print summary >"$TMP/out" 2>"$TMP/err"
contains "v2.0's own summary counts it" "$TMP/out" "skipped     1 bad row"
contains "... and warns of it" "$TMP/err" "mlperf_training_v2.0.csv:"

# Files whose names or first rows say another round: the report is the one naming them all
# gives (a file's name says nothing of which rounds are read).
# cmp_all DESC FOLDER ARGS...: the folder's report against the one naming its files.
cmp_all() {
	d=$1 f=$2; shift 2
	GPUSCALE_DATA=$f timeout 60 "$GPUSCALE" "$@" >"$TMP/out" 2>&1 </dev/null; echo "status $?" >>"$TMP/out"
	GPUSCALE_DATA=$f timeout 60 "$GPUSCALE" "$@" "$f"/mlperf_training_*.csv >"$TMP/want" 2>&1 </dev/null
	echo "status $?" >>"$TMP/want"
	if cmp -s "$TMP/out" "$TMP/want"; then ok "$d"; else nok "$d" "$(diff "$TMP/want" "$TMP/out" | head -8)"; fi
}
M="$TMP/misnamed"
mkdir -p "$M" || exit 1
ln -s "$D/families.csv" "$D/prices.csv" "$D/mlperf_training_v5.0.csv" "$M/"
ln -s "$D/mlperf_training_v4.1.csv" "$M/mlperf_training_v9.9.csv"
cmp_all "v4.1 rows named v9.9 (newer): every file read" "$M" --print summary,fit
contains "... the newest round by its rows, v5.0" "$TMP/out" "round v5.0"
O="$TMP/older"
mkdir -p "$O" || exit 1
ln -s "$D/families.csv" "$D/prices.csv" "$D/mlperf_training_v4.1.csv" "$O/"
ln -s "$D/mlperf_training_v5.0.csv" "$O/mlperf_training_v4.0.csv"
cmp_all "v5.0 rows named v4.0 (older): every file read" "$O" --print summary
contains "... the newest round by its rows, v5.0" "$TMP/out" "round v5.0"
folder prelim
ln -s "$D/mlperf_training_v5.1.csv" "$TMP/prelim/mlperf_training_prelim_v5.1.csv"
cmp_all "a name that is not a plain version (prelim_v5.1): every file read" "$TMP/prelim" --print summary
contains "... and its repeated rows are warned of" "$TMP/out" "rows repeat an earlier row"
folder tables
ln -s "$D/prices.csv" "$TMP/tables/mlperf_training_aprices.csv"
cmp_all "a prices table among the rounds (mlperf_training_aprices.csv): used as when all are read" \
	"$TMP/tables" --print query --minimize cost --deadline 60
folder cases
sed 's/^v5\.1,/V5.1,/' "$D/mlperf_training_v5.1.csv" | sed '1!{/,llama2_70b_lora,/!d}' >"$TMP/cases/mlperf_training_V5.1.csv"
cmp_all "--round V5.1 with rounds v5.1 and V5.1: the exact name, as with every round read" \
	"$TMP/cases" --round V5.1 --print summary
folder fifo
if mkfifo "$TMP/fifo/mlperf_training_v1.0.csv" 2>/dev/null; then
	# nobody writes to it: the data folder's files are never waited on (timeout: 124), unlike
	# a FIFO the command line names, whose writer may come later (inputs.sh)
	GPUSCALE_DATA=$TMP/fifo timeout 10 "$GPUSCALE" --print summary >"$TMP/out" 2>&1 </dev/null
	rc=$?
	if [ $rc -eq 2 ]; then ok "a FIFO named like a round: never waited on, an error at once"
	else nok "a FIFO named like a round: never waited on, an error at once" "status $rc (124: waited)"; fi
	contains "... and the loader's error names it" "$TMP/out" "mlperf_training_v1.0.csv: empty file"
else
	skip "a FIFO named like a round" "mkfifo failed"
	skip "... and the loader's error names it" "mkfifo failed"
fi
# one round's rows in two files whose names differ in case only: both are read
C2="$TMP/case2"
mkdir -p "$C2" || exit 1
ln -s "$D/families.csv" "$D/prices.csv" "$D/mlperf_training_v5.0.csv" "$C2/"
h=$(($(wc -l <"$D/mlperf_training_v5.1.csv") / 2))
{ head -1 "$D/mlperf_training_v5.1.csv"; sed -n "2,${h}p" "$D/mlperf_training_v5.1.csv" | sed 's/^v5\.1,/V5.1,/'; } \
	>"$C2/mlperf_training_v5.1.csv"
{ head -1 "$D/mlperf_training_v5.1.csv"; sed -n "$((h + 1)),\$p" "$D/mlperf_training_v5.1.csv" | sed 's/^v5\.1,/V5.1,/'; } \
	>"$C2/mlperf_training_V5.1.csv"
cmp_all "rows of V5.1 in files named v5.1 and V5.1: both read" "$C2" --print summary
contains "... all 62 of its llama2_70b_lora rows" "$TMP/out" "rows        62 shown of 62"

echo "1..$n_"
