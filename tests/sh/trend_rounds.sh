#!/bin/sh
# --print trend of many rounds costs about what loading them costs: each distinct value found
# by sorting, and each round analysed from its own rows, never by reading every row for every
# round. Never an absolute time: trend of 3,000 rounds (9 rows each) against summary of the
# same file, the best of three runs of each; quadratic work (the file read once per round)
# gives hundreds of times.
# gs-test: alone
. "$(dirname "$0")/../lib.sh"

rounds_csv 3000 "$TMP/rounds.csv"

if "$GPUSCALE" --print trend "$TMP/rounds.csv" >"$TMP/out" 2>"$TMP/err"; then
	ok "trend of 3,000 rounds exits 0"
else
	nok "trend of 3,000 rounds exits 0" "$(head -c 400 "$TMP/err")"
fi
head -n 2 "$TMP/out" | cut -c 1-400 >"$TMP/head"
contains "... every round a column, the first" "$TMP/head" "family  r00000 "
if sed -n 2p "$TMP/out" | grep -q 'r02999 *$'; then ok "... and the last"; else nok "... and the last" "$(sed -n 2p "$TMP/out" | tail -c 200)"; fi
if [ "$(awk 'NR > 2 && NF' "$TMP/out" | wc -l)" -eq 2 ]; then ok "... two families, a line each"; else nok "... two families, a line each" "$(cut -c 1-80 "$TMP/out")"; fi

if [ "${SANITIZE:-}" = 1 ]; then
	skip "trend of 3,000 rounds within 2x of summary" "the sanitizer's cost is no measure"
else
	best_ms 3 "$GPUSCALE" --print summary "$TMP/rounds.csv"; s=$ms
	best_ms 3 "$GPUSCALE" --print trend "$TMP/rounds.csv"; t=$ms
	[ "$s" -lt 1 ] && s=1
	if [ "$t" -le $((2 * s)) ]; then ok "trend of 3,000 rounds within 2x of summary ($s -> $t ms)"
	else nok "trend of 3,000 rounds within 2x of summary" "summary $s ms, trend $t ms"; fi
fi
