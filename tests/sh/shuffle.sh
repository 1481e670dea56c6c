#!/bin/sh
# Input order decides nothing: the shipped rounds with their rows shuffled give byte-identical
# --print csv and summary in every reference mode and rule, collapsed or not.
. "$GS_TOP/tests/lib.sh"
echo "TAP version 13"
if ! command -v python3 >/dev/null 2>&1; then
	skip "shuffled input" "python3 missing"
	echo "1..$n_"
	exit 0
fi
for f in "$GS_TOP"/data/mlperf_training_v*.csv; do
	r=$(basename "$f" .csv); r=${r#mlperf_training_}
	# a fixed permutation of the data lines (the header stays first); quoted fields hold no
	# line breaks in the shipped data
	python3 -c 'import random, sys
lines = open(sys.argv[1], newline="").read().split("\n")
head, body = lines[0], [l for l in lines[1:] if l]
random.Random(7).shuffle(body)
sys.stdout.write("\n".join([head] + body) + "\n")' "$f" >"$TMP/s.csv"
	for w in bert llama2_70b_lora; do
		for m in paper family pinned; do
			for rule in slowest median fastest; do
				for c in "" --no-collapse; do
					set -- --print csv,summary --round "$r" -w "$w" -m "$m" --ref-rule "$rule" $c
					[ "$m" = pinned ] && set -- "$@" -r "$(awk -F, -v w="$w" '$12 == w { print $2 "/" $3; exit }' "$f")"
					"$GPUSCALE" "$@" "$f" >"$TMP/a" 2>&1
					"$GPUSCALE" "$@" "$TMP/s.csv" >"$TMP/b" 2>&1
					# the source file name is the only difference allowed (it is not printed)
					if cmp -s "$TMP/a" "$TMP/b"; then :; else
						nok "$r $w -m $m --ref-rule $rule $c: shuffled input gives the same report" \
							"$(diff "$TMP/a" "$TMP/b" | head -c 600)"
						continue
					fi
					ok "$r $w -m $m --ref-rule $rule $c: shuffled input gives the same report"
				done
			done
		done
	done
done
echo "1..$n_"
