#!/bin/sh
# The split of E' into throughput and convergence (man gpuscale, CONVERGENCE): e_prime = e_conv x
# e_thru on every row of every bundled round, the hand-worked pairs with the reference pinned, and
# every row's split and every group's split brackets against tests/tools/split_ref.py.
. "$(dirname "$0")/../lib.sh"

DATA="$GS_TOP/data"
python3 -c 'import csv,glob
for f in sorted(glob.glob("'"$DATA"'/mlperf_training_v*.csv")):
    r = list(csv.DictReader(open(f, newline="")))
    for b in sorted(set(x["benchmark"] for x in r)): print(r[0]["round"], b)' >"$TMP/views" 2>/dev/null ||
	{ skip "the split on every bundled view" "python3 is absent"; echo "1..$n_"; exit 0; }

# (a) the identity, to the last digit the CSV shows (its doubles: a product within 2 ulp), and
# (c) every row's split and every group's split brackets, by split_ref.py over every view at once
: >"$TMP/bad"
set --
v=0
while read -r rd wl; do
	for m in family paper; do
		v=$((v + 1))
		"$GPUSCALE" --print csv --round "$rd" -w "$wl" -m "$m" >"$TMP/v$v.csv" 2>/dev/null || echo "$rd $wl $m: exit $?" >>"$TMP/bad"
		"$GPUSCALE" --print summary --format json --round "$rd" -w "$wl" -m "$m" >"$TMP/v$v.json" 2>/dev/null ||
			echo "$rd $wl $m: summary exit $?" >>"$TMP/bad"
		set -- "$@" "$TMP/v$v.csv" "$TMP/v$v.json"
	done
done <"$TMP/views"
python3 "$GS_TOP/tests/tools/split_ref.py" "$DATA" 0.8 "$@" >"$TMP/badref" 2>&1 || echo "split_ref.py: exit $?" >>"$TMP/bad"
nrows=$(sed -n 's/^\([0-9]*\) rows with a split$/\1/p' "$TMP/badref")
if [ -s "$TMP/bad" ]; then nok "every bundled view reports and split_ref.py agrees" "$(head -5 "$TMP/bad"; head -8 "$TMP/badref")"
elif [ "${nrows:-0}" -lt 1000 ]; then nok "e_prime = e_conv x e_thru on every row of every bundled view" "only ${nrows:-0} rows with a split"
else ok "e_prime = e_conv x e_thru on every row of every bundled view ($nrows rows), and split_ref.py agrees on every row and group ($v views)"; fi

# (b) the hand-worked pairs (round workload reference system: E' conv thru), reference pinned
pair() {
	"$GPUSCALE" --print csv --round "$1" -w "$2" -r "$3" >"$TMP/p.csv" 2>"$TMP/p.err"
	got=$(python3 - "$TMP/p.csv" "$4" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline='')):
    if r['system'] == sys.argv[2]:
        print('%.3f %.3f %.3f' % (float(r['e_prime']), float(r['e_conv']), float(r['e_thru'])))
PY
)
	if [ "$got" = "$5" ]; then ok "$1 $2 $3 -> $4: E' conv thru $5"; else nok "$1 $2 $3 -> $4: E' conv thru $5" "got '$got'"; fi
}
pair v5.0 llama2_70b_lora nyx_n1_ngc25.04_nemo tyche_ngpu512_ngc25.04_nemo "0.314 0.436 0.722"
pair v5.1 llama31_8b theia_ngpu8_ngc25.09_nemo theia_ngpu512_ngc25.09_nemo "0.202 0.793 0.254"
pair v3.0 bert dgxh100_ngc23.04_pytorch dgxh100_n96_ngc23.04_pytorch "0.225 0.879 0.256"
pair v3.1 resnet eos_ngc23.09_mxnet coreweave_hgxh100_n448_ngc23.04_mxnet "0.166 0.456 0.363"

# a run_samples count that does not match run_minutes warns at its field, the samples left empty
printf 'system,benchmark,accelerators,minutes,run_minutes,run_samples\nx,bert,8,10,1;2;3,5;6\n' >"$TMP/m.csv"
"$GPUSCALE" --print csv "$TMP/m.csv" >"$TMP/out" 2>"$TMP/err"
contains "a run_samples count mismatch warns naming file:line:column" "$TMP/err" "m.csv:2:19: run_samples: 2 values for 3 run_minutes"
echo "1..$n_"
