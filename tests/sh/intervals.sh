#!/bin/sh
# Run-to-run intervals (--print csv minutes_ci_*, e_prime_ci_*) against tests/tools/boot_ref.py,
# an independent computation of DESIGN.md's bootstrap that replays the same draws: equal to the
# last bit on a fixture with known runs (failed runs, a scaling factor, unet3d's wider olympic
# window, rows with too few runs) and on every workload of the shipped rounds.
. "$GS_TOP/tests/lib.sh"
echo "TAP version 13"
F="$GS_TOP/tests/fixtures/analysis/intervals.csv"
if ! command -v python3 >/dev/null 2>&1; then
	skip "intervals against the reference computation" "python3 missing"
	echo "1..$n_"
	exit 0
fi
for w in bert unet3d; do
	"$GPUSCALE" --print csv --round r1 -w $w "$F" >"$TMP/$w.csv" 2>"$TMP/err"
	check "fixture $w: every interval equals the reference computation" \
		python3 "$GS_TOP/tests/tools/boot_ref.py" "$F" r1 $w "$TMP/$w.csv"
done
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
# every row, as the reference computation sees them (collapsing is tested in cli.sh)
for f in "$GS_TOP"/data/mlperf_training_v*.csv; do
	r=$(basename "$f" .csv); r=${r#mlperf_training_}
	for w in $(awk -F, 'NR > 1 { gsub(/"[^"]*"/, "q"); print $12 }' "$f" | sort -u); do
		"$GPUSCALE" --print csv --no-collapse --round "$r" -w "$w" "$f" >"$TMP/d.csv" 2>"$TMP/err"
		check "$r $w: every interval equals the reference computation" \
			python3 "$GS_TOP/tests/tools/boot_ref.py" "$f" "$r" "$w" "$TMP/d.csv"
	done
done
echo "1..$n_"
