#!/bin/sh
# --print query of many families costs about what --print summary of them costs: the smallest
# predicted N is searched for on the law, not tried N by N up to the bound, and a family's rows
# and fit are found by sorting, not by reading every row for every family. Never an absolute
# time: 2,000 families of 7 rows (each an `ok` fit whose deadline no N meets, the search's
# longest case) against summary of the same file, the best of three runs of each.
# gs-test: alone
. "$(dirname "$0")/../lib.sh"

awk 'BEGIN {
	print "round,submitter,system,accelerator,accelerators,benchmark,minutes"
	for (f = 0; f < 2000; f++)
		for (i = 0; i < 7; i++) {
			n = 2 ^ (i + 4); s = 0.02 + (f % 10) * 0.003; k = 1e-6 * (1 + f % 7)
			t = 6000 * (1 + s * (n - 1) + k * n * (n - 1)) / n * (1 + ((f * 7 + i) % 5 - 2) * 0.002)
			printf "v9.9,S,s%d_%d,ACC%04d,%d,bench,%.6f\n", f, i, f, n, t
		}
}' >"$TMP/fam.csv"

expect_exit "query of 2,000 families exits 0" 0 "$GPUSCALE" --print query --deadline 0.01 "$TMP/fam.csv"
if [ "$(grep -c '    not predicted: no N up to 102400 meets it; fit ok' "$TMP/out")" -eq 2000 ]; then
	ok "... every family's law searched up to its bound"
else
	nok "... every family's law searched up to its bound" "$(head -c 600 "$TMP/out")"
fi
"$GPUSCALE" --print query --deadline 300 "$TMP/fam.csv" >"$TMP/out" 2>/dev/null
contains "... and a deadline the law meets gives its smallest N" "$TMP/out" "    predicted N 33, 90% N 33: T 298 (297..299) min"

if [ "${SANITIZE:-}" = 1 ]; then
	skip "query of 2,000 families within 2x of summary" "the sanitizer's cost is no measure"
else
	best_ms 3 "$GPUSCALE" --print summary "$TMP/fam.csv"; s=$ms
	best_ms 3 "$GPUSCALE" --print query --deadline 0.01 "$TMP/fam.csv"; t=$ms
	[ "$s" -lt 1 ] && s=1
	if [ "$t" -le $((2 * s)) ]; then ok "query of 2,000 families within 2x of summary ($s -> $t ms)"
	else nok "query of 2,000 families within 2x of summary" "summary $s ms, query $t ms"; fi
fi
