#!/bin/sh
# `gpuscale import` when memory runs out: under every address-space limit (ulimit -v, in a
# subshell) from too little to start up to enough, the import either writes exactly the file
# an unlimited run writes, or exits 1 saying "out of memory" and leaves no output file and no
# temporary. Never a crash, never a file cut short, never a success that lost rows.
. "$(dirname "$0")/../lib.sh"

if [ "${SANITIZE:-}" = 1 ]; then
	skip "imports under ulimit -v" "AddressSanitizer reserves terabytes of address space"
	exit 0
fi

# sweep NAME TREE FROM TO STEP: one TAP line for the sweep of that tree
sweep() {
	name=$1 tree=$2 from=$3 to=$4 step=$5
	D="$TMP/sweep-$name"
	mkdir -p "$D/out"
	if ! "$GPUSCALE" import -o "$D/full.csv" "$tree" >/dev/null 2>"$D/full.err"; then
		nok "$name: imports without a limit" "$(head -c 600 "$D/full.err")"
		return
	fi
	good=0 oom=0 bad=
	[ "$from" -lt "$base" ] && from=$base
	v=$from
	while [ "$v" -le "$to" ]; do
		rm -f "$D/out/o.csv"
		(ulimit -v "$v"; exec "$GPUSCALE" import --force -o "$D/out/o.csv" "$tree") >/dev/null 2>"$D/err"
		rc=$?
		left=$(ls -A "$D/out" | tr '\n' ' ')
		if [ $rc -eq 0 ] && cmp -s "$D/out/o.csv" "$D/full.csv" && [ "$left" = "o.csv " ]; then
			good=$((good + 1))
		elif [ $rc -eq 1 ] && grep -q 'out of memory' "$D/err" && [ -z "$left" ]; then
			oom=$((oom + 1))
		elif [ $rc -eq 127 ] && grep -Eq 'error while loading shared libraries|cannot allocate TLS data structures' "$D/err"; then
			: # too little to start the program at all (the dynamic loader gives up before main)
		else
			bad="$bad [ulimit -v $v: exit $rc, left '$left', $(tail -n 1 "$D/err" | head -c 200)]"
		fi
		v=$((v + step))
	done
	if [ -z "$bad" ] && [ $good -gt 0 ] && [ $oom -gt 0 ]; then
		ok "$name: $good limits give the whole file, $oom exit 1 'out of memory' with no file"
	else
		nok "$name: every limit gives the whole file or 'out of memory' and no file" \
			"complete $good, out of memory $oom" "$bad"
	fi
}

# the smallest limit the binary starts under (machines and builds differ in what it needs to
# start): no sweep goes below it, where the program cannot start at all
base=1000
while [ $base -lt 200000 ]; do
	# in a shell of its own, whose report of a program that could not start goes nowhere
	sh -c 'ulimit -v "$1"; exec "$2" --version' sh "$base" "$GPUSCALE" >/dev/null 2>&1 && break
	base=$((base + 250))
done
if [ $base -ge 200000 ]; then
	nok "the program starts under some ulimit -v" "not up to 200000 KB"
	exit 0
fi

# enough TREE FROM: the smallest limit, in steps of 2000 KB from FROM, under which the import
# of TREE succeeds (machines differ in what a tree needs: the sweep is placed around it)
enough() {
	e=$2
	while [ "$e" -lt $((base + 400000)) ]; do
		(ulimit -v "$e"; exec "$GPUSCALE" import --force -o "$TMP/enough.csv" "$1") \
			>/dev/null 2>&1 && { echo "$e"; return; }
		e=$((e + 2000))
	done
	echo "$e"
}

top=$(enough "$FIX/import/training_results_vT" $((base + 1000)))
sweep fixture "$FIX/import/training_results_vT" $((top - 3000)) $((top + 500)) 25

if [ -d "$MLPERF/training_results_v4.0" ]; then
	top=$(enough "$MLPERF/training_results_v4.0" $((base + 2000)))
	sweep v4.0 "$MLPERF/training_results_v4.0" $((top - 4500)) $((top + 500)) 50
else
	skip "v4.0: every limit gives the whole file or 'out of memory'" "../shared/mlperf is absent"
fi
echo "1..$n_"
