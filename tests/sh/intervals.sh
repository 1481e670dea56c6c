#!/bin/sh
# Run-to-run intervals (--print csv minutes_ci_*, e_prime_ci_*) against tests/tools/boot_ref.py,
# an independent computation of the man page's bootstrap (run-to-run interval) that replays the same draws: equal to the
# last bit on a fixture with known runs (failed runs, a scaling factor, unet3d's wider olympic
# window, rows with too few runs) and on every workload of the shipped rounds, in paper and
# family mode.
. "$GS_TOP/tests/lib.sh"
echo "TAP version 13"
F="$GS_TOP/tests/fixtures/analysis/intervals.csv"
if ! command -v python3 >/dev/null 2>&1; then
	skip "intervals against the reference computation" "python3 missing"
	echo "1..$n_"
	exit 0
fi
# Every comparison with the reference computation is a job of one run of it at the end (a
# Python run per comparison, each making its rows' draws again, was most of this script's time).
# ref DESC WANT MODE RESULTS ROUND BENCHMARK GPUSCALE.csv: a job, its TAP line ok when the
# comparison ends in "exit WANT" (0: equal to the last bit, 1: they differ).
nj=0
: >"$TMP/jobs"
: >"$TMP/descs"
ref() {
	nj=$((nj + 1))
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$3" "$4" "$5" "$6" "$7" "$TMP/job$nj" >>"$TMP/jobs"
	printf '%s\t%s\t%s\n' "$TMP/job$nj" "$2" "$1" >>"$TMP/descs"
}
# the fixture is of one family: its group is every row, in either mode
for w in bert unet3d; do
	"$GPUSCALE" --print csv --round r1 -w $w "$F" >"$TMP/$w.csv" 2>"$TMP/err"
	ref "fixture $w: every interval equals the reference computation" 0 family "$F" r1 $w "$TMP/$w.csv"
	"$GPUSCALE" --print csv -m paper --round r1 -w $w "$F" >"$TMP/$w.paper.csv" 2>"$TMP/err"
	ref "fixture $w -m paper: every interval equals the reference computation" 0 paper "$F" r1 $w "$TMP/$w.paper.csv"
done
# rows of 3 to 40 runs, listed out of order, with ties, failed runs, a scaling factor, runs all
# equal, of two values and a hair apart (the percentiles' buckets, boot.c): the
# draws count in one word up to 15 runs and in memory above (boot.c), both against the same
# reference computation
R="$GS_TOP/tests/fixtures/analysis/intervals_runs.csv"
for w in bert unet3d; do
	"$GPUSCALE" --print csv --round r1 -w $w "$R" >"$TMP/runs_$w.csv" 2>"$TMP/err"
	ref "runs 3..40, unsorted: $w intervals equal the reference computation" 0 family "$R" r1 $w "$TMP/runs_$w.csv"
done
awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["minutes_ci_lo"] != "" { n++ } END { print "with interval:", n }' "$TMP/runs_bert.csv" "$TMP/runs_unet3d.csv" >"$TMP/n"
contains "runs 3..40: every row has an interval" "$TMP/n" "with interval: 13"
# the reference's own E' interval is exactly [1, 1]; two runs give no interval
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["system"] == "ref_4x" { print $c["e_prime_ci_lo"], $c["e_prime_ci_hi"] }
	$c["system"] == "two_32x" { print "two:" $c["minutes_ci_lo"] ":" $c["e_prime_ci_hi"] ":" }' \
	"$TMP/bert.csv" >"$TMP/ref"
contains "the reference's E' interval is exactly 1..1" "$TMP/ref" "1 1"
contains "two runs: no interval" "$TMP/ref" "two:::"
# twice the same: deterministic
"$GPUSCALE" --print csv --round r1 -w bert "$F" >"$TMP/again.csv" 2>&1
check "the same intervals on a second run" cmp "$TMP/bert.csv" "$TMP/again.csv"
# runs that overflow: resampled scores of inf, and ratios of 0/0 among the paired resamples;
# the percentiles must still end (a selection that moved nothing past a NAN pivot looped)
printf 'round,submitter,system,accelerator,accelerators,benchmark,minutes,run_minutes\n%s\n%s\n' \
	'v9,S1,SYS_A,H200,8,bert,1e300,1e308;1e308;1e308;1;1' 'v9,S2,SYS_B,H200,16,bert,5,1e308;1e308;1e308;5;6' >"$TMP/inf.csv"
for w in summary csv; do
	timeout 30 "$GPUSCALE" --print $w "$TMP/inf.csv" >"$TMP/inf.out" 2>&1
	rc=$?
	if [ $rc = 0 ] && [ -s "$TMP/inf.out" ]; then ok "--print $w of runs that overflow ends"
	else nok "--print $w of runs that overflow ends" "exit $rc" "$(head -n 3 "$TMP/inf.out")"; fi
done
# every row, as the reference computation sees them (collapsing is tested in cli.sh), against
# the one reference of all rows (paper mode) and against each family's own (family mode, the
# default)
# (a sanitizer build checks the default mode only: the reference computation is the same in
# both builds, and the normal one checks both modes)
modes="paper family"
[ "${SANITIZE:-}" = 1 ] && modes=family
for f in "$GS_TOP"/data/mlperf_training_v*.csv; do
	r=$(basename "$f" .csv); r=${r#mlperf_training_}
	for w in $(awk -F, 'NR > 1 { gsub(/"[^"]*"/, "q"); print $12 }' "$f" | sort -u); do
		for m in $modes; do
			"$GPUSCALE" --print csv --no-collapse -m $m --round "$r" -w "$w" "$f" >"$TMP/d_${r}_${w}_$m.csv" 2>"$TMP/err"
			ref "$r $w -m $m: every interval equals the reference computation" 0 $m "$f" "$r" "$w" "$TMP/d_${r}_${w}_$m.csv"
		done
	done
done
# the two modes differ where families mix: the comparison above could tell them apart
"$GPUSCALE" --print csv --no-collapse -m paper --round v4.1 -w bert "$GS_TOP/data/mlperf_training_v4.1.csv" >"$TMP/d.csv" 2>"$TMP/err"
ref "v4.1 bert: paper-mode intervals differ from the per-family reference computation" 1 \
	family "$GS_TOP/data/mlperf_training_v4.1.csv" v4.1 bert "$TMP/d.csv"
python3 "$GS_TOP/tests/tools/boot_ref.py" --batch "$TMP/jobs" >"$TMP/batch.out" 2>&1
brc=$?
tab=$(printf '\t')
while IFS=$tab read -r out want desc; do
	if [ "$(tail -n 1 "$out" 2>/dev/null)" = "exit $want" ]; then
		[ "$want" = 0 ] && ok "$desc" || ok "$desc ($(tail -n 2 "$out" | head -n 1))"
	elif [ -f "$out" ]; then nok "$desc" "$(head -c 600 "$out")"
	else nok "$desc" "the reference computation did not get to it (exit $brc)" "$(tail -c 600 "$TMP/batch.out")"; fi
done <"$TMP/descs"
echo "1..$n_"
