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

# (a) the identity, to the last digit the CSV shows (its doubles: a product within 2 ulp)
: >"$TMP/bad"
: >"$TMP/badref"
nrows=0
while read -r rd wl; do
	for m in family paper; do
		"$GPUSCALE" --print csv --round "$rd" -w "$wl" -m "$m" >"$TMP/v.csv" 2>/dev/null || echo "$rd $wl $m: exit $?" >>"$TMP/bad"
		# (c), on the same view: every row's split and every group's split brackets
		"$GPUSCALE" --print summary --format json --round "$rd" -w "$wl" -m "$m" >"$TMP/v.json" 2>/dev/null
		python3 "$GS_TOP/tests/tools/split_ref.py" "$DATA" "$TMP/v.csv" "$TMP/v.json" 0.8 >>"$TMP/badref" 2>&1 ||
			echo "($rd $wl $m)" >>"$TMP/badref"
		python3 - "$TMP/v.csv" "$rd $wl $m" >>"$TMP/bad" <<'PY'
import csv, sys
n = 0
for r in csv.DictReader(open(sys.argv[1], newline='')):
    if r['e_conv'] == '':
        if r['e_thru'] != '': print(sys.argv[2], r['system'], 'e_thru without e_conv')
        continue
    n += 1
    p, ep = float(r['e_conv']) * float(r['e_thru']), float(r['e_prime'])
    if abs(p - ep) > 4.5e-16 * abs(ep): print(sys.argv[2], r['system'], r['e_conv'], r['e_thru'], r['e_prime'])
open(sys.argv[1] + '.n', 'w').write(str(n))
PY
		nrows=$((nrows + $(cat "$TMP/v.csv.n" 2>/dev/null || echo 0)))
	done
done <"$TMP/views"
if [ -s "$TMP/bad" ]; then nok "e_prime = e_conv x e_thru on every row of every bundled view" "$(head -5 "$TMP/bad")"
elif [ "$nrows" -lt 1000 ]; then nok "e_prime = e_conv x e_thru on every row of every bundled view" "only $nrows rows with a split"
else ok "e_prime = e_conv x e_thru on every row of every bundled view ($nrows rows)"; fi

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

# (c) every row's split and every group's split brackets against the independent computation
if [ -s "$TMP/badref" ]; then nok "split_ref.py agrees on every row and group of every bundled view" "$(head -8 "$TMP/badref")"
else ok "split_ref.py agrees on every row and group of every bundled view"; fi

# a run_samples count that does not match run_minutes warns at its field, the samples left empty
printf 'system,benchmark,accelerators,minutes,run_minutes,run_samples\nx,bert,8,10,1;2;3,5;6\n' >"$TMP/m.csv"
"$GPUSCALE" --print csv "$TMP/m.csv" >"$TMP/out" 2>"$TMP/err"
contains "a run_samples count mismatch warns naming file:line:column" "$TMP/err" "m.csv:2:19: run_samples: 2 values for 3 run_minutes"
echo "1..$n_"
