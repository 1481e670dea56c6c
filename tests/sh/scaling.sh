#!/bin/sh
# Nothing quadratic in the loader: the runs of one row, one large field, the number of files.
# Never an absolute time: each check times the same command on an input 4 times as large and
# wants less than 8 times the time (linear work gives about 4, quadratic 16); the large field
# counts the buffer's growths instead (strace), which no load on the machine changes.
# gs-test: alone
. "$(dirname "$0")/../lib.sh"

HEAD="round,submitter,system,accelerator,nodes,accelerators_per_node,accelerators,benchmark,minutes,runs_scored,runs_failed,scaling_factor,run_minutes,notes"

# ratio DESC SMALL_MS LARGE_MS: passes when LARGE < 8 x SMALL (the small case at least 1 ms)
ratio() {
	s=$2; [ "$s" -lt 1 ] && s=1
	if [ "$3" -lt $((8 * s)) ]; then ok "$1: x4 input, x$(($3 * 10 / s / 10)).$(($3 * 10 / s % 10)) time ($2 -> $3 ms)"
	else nok "$1: x4 input, under x8 time" "$2 ms -> $3 ms"; fi
}

# runs R FILE: one row of R runs (and a second row, the reference of a break-even)
runs() {
	awk -v R="$1" -v H="$HEAD" 'BEGIN { srand(7); print H; printf "v9.9,S,a,NVIDIA H100,1,8,8,bert,10.5,%d,0,1,", R
		for (i = 0; i < R; i++) printf "%s%.4f", i ? ";" : "", 10 + rand(); print ",x"
		print "v9.9,S,b,NVIDIA H100,2,8,16,bert,6.5,3,0,1,6.4;6.5;6.6,x" }' >"$2"
}
runs 10000 "$TMP/r1.csv"
runs 40000 "$TMP/r4.csv"
if "$GPUSCALE" --print csv "$TMP/r4.csv" >"$TMP/out" 2>"$TMP/err" && grep -q ',40000,' "$TMP/out"; then
	ok "a row of 40,000 runs loads and prints"
else
	nok "a row of 40,000 runs loads and prints" "$(head -c 400 "$TMP/err")"
fi
best_ms 2 "$GPUSCALE" --print csv "$TMP/r1.csv"; a=$ms
best_ms 2 "$GPUSCALE" --print csv "$TMP/r4.csv"; b=$ms
ratio "runs of one row (sort and bootstrap ranks)" "$a" "$b"

# files N DIR: N files of 30 distinct rows each
files() {
	mkdir -p "$2"
	awk -v N="$1" -v D="$2" -v H="$HEAD" 'BEGIN { for (i = 0; i < N; i++) { f = sprintf("%s/f%05d.csv", D, i)
		print H >f; for (j = 0; j < 30; j++) printf "v9.9,S,s%d_%d,NVIDIA H100,1,8,8,bert,10.5,3,0,1,10;10.5;11,x\n", i, j >f
		close(f) } }'
}
files 500 "$TMP/f1"
files 2000 "$TMP/f4"
if "$GPUSCALE" --print summary "$TMP"/f4/*.csv >"$TMP/out" 2>"$TMP/err" && grep -q '60000' "$TMP/out"; then
	ok "2,000 files of 30 rows load: 60000 rows"
else
	nok "2,000 files of 30 rows load: 60000 rows" "$(head -c 400 "$TMP/out")" "$(head -c 400 "$TMP/err")"
fi
best_ms 2 "$GPUSCALE" --print summary "$TMP"/f1/*.csv; a=$ms
best_ms 2 "$GPUSCALE" --print summary "$TMP"/f4/*.csv; b=$ms
ratio "files (the duplicate check across files)" "$a" "$b"

# one quoted field of 12 MiB: libcsv's buffer grows by blocks of 128 bytes unless told
# otherwise (one realloc, and past the mmap threshold one mremap, per page: 3,072)
{ echo "$HEAD"; printf 'v9.9,S,a,NVIDIA H100,1,8,8,bert,10.5,3,0,1,10;10.5;11,"'
  head -c 12582912 /dev/zero | tr '\0' y; printf '"\n'
  echo "v9.9,S,b,NVIDIA H100,2,8,16,bert,6.5,3,0,1,6.4;6.5;6.6,x"; } >"$TMP/field.csv"
if ! command -v strace >/dev/null 2>&1; then
	skip "a 12 MiB field grows its buffer geometrically" "no strace"
elif [ "${SANITIZE:-}" = 1 ]; then
	skip "a 12 MiB field grows its buffer geometrically" "the sanitizer's allocator maps its own way"
else
	strace -f -qq -c -o "$TMP/st" -e trace=mremap,brk,mmap "$GPUSCALE" --print summary "$TMP/field.csv" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	calls=$(awk '$NF == "mremap" || $NF == "brk" || $NF == "mmap" { print $NF ":" $4 }' "$TMP/st" | tr '\n' ' ')
	if [ $rc -eq 0 ] && [ "$(awk '$NF == "total" { print $4 }' "$TMP/st")" -lt 400 ] 2>/dev/null; then
		ok "a 12 MiB field loads with few growths of its buffer ($calls)"
	else
		nok "a 12 MiB field loads with few growths of its buffer" "exit $rc, $calls" "$(head -c 300 "$TMP/err")"
	fi
fi
echo "1..$n_"
