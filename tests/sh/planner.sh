#!/bin/sh
# The planner's reports: --print query (a deadline, budgets, an objective), --predict N (against
# an independent SciPy computation, tests/tools/predict_ref.py), --print trend (each cell
# against that round's own --print summary), and --format json (every output parses, its numbers
# equal the text's and --print csv's); the option errors.
. "$(dirname "$0")/../lib.sh"

py=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import json' 2>/dev/null; then
		py=$p
		break
	fi
done
pysci=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import scipy.optimize, scipy.stats, numpy' 2>/dev/null; then
		pysci=$p
		break
	fi
done

# tap_of FILE: the "PASS<TAB>what" / "FAIL<TAB>what<TAB>detail" lines of a checker as TAP
tap_of() {
	while IFS="$(printf '\t')" read -r st what detail; do
		case $st in
		PASS) ok "$what" ;;
		FAIL) nok "$what" "$detail" ;;
		*) nok "checker output" "$st $what $detail" ;;
		esac
	done <"$1"
}

# the bundled rounds without the RCP table: the time law answers every family (the split law's
# checks come after it)
mkdir -p "$TMP/norcp" && ln -s "$GS_TOP"/data/*.csv "$TMP/norcp/" && rm -f "$TMP/norcp/rcp.csv"
tl() { GPUSCALE_DATA=$TMP/norcp "$GPUSCALE" "$@"; }

# ---- query ----
tl --print query --deadline 30 -w llama2_70b_lora --minimize acc-hours >"$TMP/q" 2>"$TMP/err"
contains "query: the newest round, the constraint and the objective" "$TMP/q" \
	"Llama2-LoRA (llama2_70b_lora), round v5.1: T <= 30 min; minimizing acc-hours"
contains "query --minimize acc-hours: the best is the 8x GB300 row of v5.1 (0.796 A-h)" "$TMP/q" \
	"  best        GB300: theia_ngpu8_ngc25.09_nemo (N=8): T 5.97 min, A 0.796"
contains "query: an ok fit's answer in whole nodes, with the law's N and the verdict" "$TMP/q" \
	"    predicted N 8 (1 node of 8; the law's N 7), 90% N 8: T 23.6 (23.2..24.0) min, E' 1.00 (0.983..1.02), A 3.15 (3.09..3.20), cost 7.87..22.0 USD; fit ok"
contains "query: a poor fit still answers, its verdict beside the number" "$TMP/q" \
	"    predicted N 8 (1 node of 8; the law's N 3), 90% N 8: T 9.97 (9.58..10.4) min, E' 1.01 (0.973..1.05), A 1.33 (1.28..1.38), cost 3.52..18.9 USD; poor fit: worst N=16 observed 0.75, fitted 0.90"
# how many B200 for Llama3.1-8B in under 10 minutes: the law's 288, whole nodes of 8
tl --print query --deadline 10 -w llama31_8b -f B200 >"$TMP/q8" 2>"$TMP/err"
contains "query: 288 B200 for Llama3.1-8B in 10 min, in nodes, with the N interval and the verdict" "$TMP/q8" \
	"    predicted N 288 (36 nodes of 8), 90% N 192..792: T 9.99 (8.74..11.4) min"
contains "... the poor fit said beside it" "$TMP/q8" "(extrapolated); poor fit: worst N=32 observed 0.66, fitted 0.81"
contains "query: a family without a fit says why" "$TMP/q" "not predicted: no fit (needs 3 distinct N)"

"$GPUSCALE" --print query --deadline 30 -w llama2_70b_lora --minimize cost >"$TMP/qc" 2>"$TMP/err"
"$GPUSCALE" --print csv -w llama2_70b_lora >"$TMP/csv" 2>"$TMP/err"
# the cheapest priced row meeting the deadline, by mid-range cost, straight from the CSV
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ gsub(/"[^"]*"/, "q") }
	$c["cost_lo"] != "" && $c["minutes"] <= 30 { m = ($c["cost_lo"] + $c["cost_hi"]) / 2;
		if (best == "" || m < bm) { best = $c["system"]; bm = m } }
	END { print best }' "$TMP/csv")
if [ -n "$want" ] && grep -q "^  best        [^:]*: $want (N=" "$TMP/qc"; then
	ok "query --minimize cost: the cheapest priced row ($want)"
else
	nok "query --minimize cost: the cheapest priced row" "want '$want'" "$(head -3 "$TMP/qc")"
fi
contains "query --minimize cost: says unpriced families were left out" "$TMP/qc" \
	"families without a price (prices.csv): no cost answer for them"
contains "query --minimize cost: an unpriced family is named as left out" "$TMP/qc" \
	"  family      GB300: left out: no price (prices.csv)"

"$GPUSCALE" --print query --deadline 30 --max-cost 5 -w llama2_70b_lora >"$TMP/qb" 2>&1
if grep -q "(possibly within 5 USD)" "$TMP/qb" && ! grep -q "(surely within 5 USD)" "$TMP/qb"; then
	ok "query --max-cost: a budget only the low end of a price range meets is 'possibly'"
else
	nok "query --max-cost: possibly" "$(cat "$TMP/qb")"
fi
"$GPUSCALE" --print query --max-kwh 1 -w llama2_70b_lora --round v4.1 >"$TMP/qk" 2>&1
contains "query --max-kwh: families without energy are left out and counted" "$TMP/qk" \
	"without energy measured: no kWh answer"
"$GPUSCALE" --print query --deadline 0.01 -w llama2_70b_lora >"$TMP/qn" 2>&1
contains "query: nothing meets it" "$TMP/qn" "  best        none: no shown row meets it"
# a constraint alone asks for the query
tl --deadline 30 -w llama2_70b_lora </dev/null >"$TMP/qa" 2>&1
if cmp -s "$TMP/q" "$TMP/qa"; then ok "--deadline alone prints the query"; else nok "--deadline alone prints the query" "$(head -3 "$TMP/qa")"; fi

# ---- predict ----
tl --predict 2048 -w llama31_405b >"$TMP/p" 2>"$TMP/err"
contains "predict: 2048 GB200 on Llama3.1-405B, about 22.7 min, with an interval" "$TMP/p" \
	"  GB200: N 2048: T 22.7 (21.0..24.5) min"
contains "predict: a family with fewer than 3 distinct N is refused with the reason" "$TMP/p" \
	"  B200: not predicted: no fit (needs 3 distinct N)"
tl --predict 100 -w llama2_70b_lora >"$TMP/p2" 2>&1
contains "predict: a poor fit gives the law's number with the verdict beside it" "$TMP/p2" \
	"  B200: N 100: T 1.94 (1.77..2.13) min, E' 0.416 (0.379..0.457), A 3.24 (2.95..3.55), cost 8.58..46.1 USD; poor fit: worst N=16 observed 0.75, fitted 0.90"
contains "predict: a weak fit gives its number, and says weak" "$TMP/p2" \
	"  GB200: N 100: T 1.06 (0.994..1.12) min, E' 0.680 (0.640..0.723), A 1.76 (1.66..1.87); fit weak (5 points < 6)"
contains "predict: past the largest observed N says extrapolated" "$TMP/p2" "(extrapolated)"
tl --predict 16 -w llama2_70b_lora -f "H200 SXM" >"$TMP/p3" 2>&1
if grep -q "H200 SXM: N 16: T" "$TMP/p3" && ! grep -q "extrapolated" "$TMP/p3"; then
	ok "predict: within the observed N, not extrapolated"
else
	nok "predict: within the observed N" "$(cat "$TMP/p3")"
fi

# ---- the split law: throughput x RCP, where the family has convergence data ----
"$GPUSCALE" --print query --deadline 10 -w llama31_8b -f B200 >"$TMP/s8" 2>"$TMP/err"
contains "split: 10 min of Llama3.1-8B on B200 from the throughput law at the GBS of the row nearest" "$TMP/s8" \
	"    predicted (throughput law x RCP at GBS 128) N 496 (62 nodes of 8; the law's N 490), 90% N 288..-: T 9.96 (7.74..12.8) min"
contains "split: ... its own verdict beside it" "$TMP/s8" "poor fit: worst N=32 observed X 4778, fitted 6613 samples/min"
"$GPUSCALE" --print query --deadline 10 -w llama31_8b -f B200 --gbs 64 >"$TMP/s64" 2>"$TMP/err"
contains "split --gbs 64: the RCP at GBS 64 needs fewer samples: 184 B200" "$TMP/s64" \
	"    predicted (throughput law x RCP at GBS 64) N 184 (23 nodes of 8; the law's N 177), 90% N 144..264: T 9.79 (8.37..11.5) min"
"$GPUSCALE" --predict 2048 -w llama31_405b >"$TMP/s405" 2>"$TMP/err"
contains "split: a GBS outside the RCP table is said, the time law answering, no extrapolation" "$TMP/s405" \
	"  GB200: N 2048: T 22.7 (21.0..24.5) min, E' 0.936 (0.865..1.01), A 774 (715..838); fit weak (3 points < 6) (time law: GBS 960 outside the RCP table's 1152..4608 (ruleset 5.1.0): no extrapolation)"
"$GPUSCALE" --predict 512 -w llama31_8b --gbs 4096 >"$TMP/sg" 2>"$TMP/err"
contains "split --gbs 4096: outside the table, said" "$TMP/sg" "(time law: GBS 4096 outside the RCP table's 16..128 (ruleset 5.1.0): no extrapolation)"
"$GPUSCALE" --predict 512 -w llama31_8b --gbs 64 --format json --print predict >"$TMP/sj" 2>"$TMP/err"
if "$py" -c 'import json,sys
f = [x for x in json.load(open(sys.argv[1]))["predict"][0]["families"] if x["family"] == "B200"][0]
# the RCP means of ruleset 5.1.0 at 64 (data/rcp.csv): T = S_rcp / X(N)
sys.exit(not (f["law"] == "throughput_rcp" and f["gbs"] == 64 and f["rcp_unit"] == "samples" and
              f["rcp_mean"] == 226645.33333333334 and f["ok"]))' "$TMP/sj"; then ok "split json: law, gbs, rcp_mean, rcp_unit"
else nok "split json: law, gbs, rcp_mean, rcp_unit" "$(head -c 600 "$TMP/sj")"; fi
expect_exit "--gbs without --predict or a query is a usage error" 2 "$GPUSCALE" --gbs 64 --print summary
expect_exit "--gbs 0 is refused" 2 "$GPUSCALE" --gbs 0 --predict 8

# ---- trend ----
"$GPUSCALE" --print trend -w llama2_70b_lora >"$TMP/t" 2>"$TMP/err"
head -2 "$TMP/t" | tail -1 >"$TMP/thead"
for fam in "H100 SXM" "B200"; do
	if grep -q "^$fam  " "$TMP/t"; then ok "trend: a row for $fam"; else nok "trend: a row for $fam" "$(cat "$TMP/t")"; fi
done
rounds=$(tr -s ' ' '\n' <"$TMP/thead" | grep '^v')
nr=$(printf '%s\n' "$rounds" | grep -c .)
[ "$nr" -ge 4 ] && ok "trend: $nr rounds of Llama2-LoRA's span" || nok "trend: the span's rounds" "$(cat "$TMP/thead")"
# each cell against that round's summary: same bracket (short form), same reference N, '-'
# exactly where the summary has no block for the family
bad=
cells=0
col=0
for r in $rounds; do
	col=$((col + 1))
	"$GPUSCALE" --print summary --round "$r" -w llama2_70b_lora >"$TMP/s_$r" 2>&1
	awk '/^  family      / { f = substr($0, 15) } f && /^    reference   / { n = $0; sub(/.*\(N=/, "", n); sub(/,.*/, "", n) }
		f && /^    bracket     / { b = substr($0, 17); sub(/  .*/, "", b); sub(/ \(no .*/, "", b);
			if (b == "none at theta") b = "none"; print f "\t" b " @" n; f = "" }' "$TMP/s_$r" >"$TMP/sb_$r"
	# the cells of column $col: the header's positions give where each column starts
	"$py" - "$TMP/t" "$col" >"$TMP/tc_$r" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
head = lines[1]
starts = [m.start() for m in re.finditer(r"v\d+\.\d+", head)]
c = int(sys.argv[2]) - 1
for l in lines[2:]:
    if not l:
        continue
    fam = l[:starts[0]].rstrip()
    end = starts[c + 1] if c + 1 < len(starts) else len(l)
    print("%s\t%s" % (fam, l[starts[c]:end].strip()))
EOF
	while IFS="$(printf '\t')" read -r fam cell; do
		cells=$((cells + 1))
		want=$(awk -F'\t' -v f="$fam" '$1 == f { print $2 }' "$TMP/sb_$r")
		[ -z "$want" ] && want=-
		[ "$cell" = "$want" ] || bad="$bad [$r $fam: trend '$cell', summary '$want']"
	done <"$TMP/tc_$r"
done
if [ -z "$bad" ] && [ "$cells" -ge 20 ]; then
	ok "trend: each of $cells cells equals its round's --print summary bracket and reference N"
else
	nok "trend: cells equal the rounds' summaries ($cells cells)" "$bad"
fi
"$GPUSCALE" --print trend -w bert --round v4.1 >"$TMP/tb" 2>&1
contains "trend: the current round is named" "$TMP/tb" "current v4.1"

# ---- json ----
if [ -z "$py" ]; then
	skip "--format json parses" "python3 is missing"
else
	for what in summary fit pareto sensitivity query predict trend "summary,fit,pareto,sensitivity,query,predict,trend"; do
		"$GPUSCALE" --format json --print "$what" --predict 64 --deadline 30 -w llama2_70b_lora >"$TMP/j" 2>"$TMP/err"
		if "$py" -m json.tool "$TMP/j" >/dev/null 2>"$TMP/jerr"; then
			ok "--format json --print $what parses"
		else
			nok "--format json --print $what parses" "$(cat "$TMP/jerr")" "$(head -c 300 "$TMP/j")"
		fi
	done
	"$GPUSCALE" --format json --print summary --round v4.1 >"$TMP/js" 2>&1
	"$py" -m json.tool "$TMP/js" >/dev/null 2>&1 && ok "--format json --print summary of every workload parses" ||
		nok "--format json summary of every workload parses"
	lacks "--format json: no NaN" "$TMP/js" "NaN"
	# one rule for every report: without -w each member lists every workload of the round
	"$GPUSCALE" --format json --print summary,fit,pareto,sensitivity,trend --round v4.1 >"$TMP/jall" 2>&1
	"$GPUSCALE" --round v4.1 --print csv | "$py" -c '
import csv, json, sys
want = []
for r in csv.DictReader(sys.stdin):
    if r["benchmark"] not in want:
        want.append(r["benchmark"])
doc = json.load(open(sys.argv[1]))
got = {k: [o["workload"] for o in doc[k]] for k in ("summary", "fit", "pareto", "sensitivity", "trend")}
bad = [k for k, v in got.items() if v != want]
print("ok" if not bad and len(want) >= 5 else "bad %r %r" % (want, got))' "$TMP/jall" >"$TMP/jw" 2>&1
	if [ "$(cat "$TMP/jw")" = ok ]; then ok "--format json without -w: every member lists every workload of the round"
	else nok "--format json without -w: every member lists every workload" "$(head -c 600 "$TMP/jw")"; fi

	"$GPUSCALE" --format json --print query,predict,trend,summary,pareto,fit --predict 100 --deadline 30 \
		-w llama2_70b_lora >"$TMP/j" 2>&1
	"$GPUSCALE" --print summary -w llama2_70b_lora >"$TMP/s" 2>&1
	"$GPUSCALE" --print query --deadline 30 -w llama2_70b_lora >"$TMP/qf" 2>&1
	"$GPUSCALE" --predict 100 -w llama2_70b_lora >"$TMP/p2f" 2>&1
	"$GPUSCALE" --print fit -w llama2_70b_lora >"$TMP/f" 2>&1
	"$GPUSCALE" --print pareto -w llama2_70b_lora >"$TMP/pa" 2>&1
	cat >"$TMP/jcheck.py" <<'EOF'
import csv, json, re, sys
doc = json.load(open(sys.argv[1]))
rows = {}
with open(sys.argv[2], newline="") as f:
    for r in csv.DictReader(f):
        rows[(r["submitter"], r["system"])] = r
q, p, t, s, fit, pa = (open(x).read() for x in sys.argv[3:9])
bad = 0
def check(ok, what, detail=""):
    global bad
    bad += not ok
    print("PASS\t%s" % what if ok else "FAIL\t%s\t%s" % (what, str(detail).replace("\n", " | ")))
def csv_equal(row, what):
    c = rows[(row["submitter"], row["system"])]
    for jk, ck in (("minutes", "minutes"), ("acc_hours", "acc_hours"), ("e_prime", "e_prime"),
                   ("speedup", "speedup"), ("kwh", "kwh"), ("cost_lo_usd", "cost_lo"), ("cost_hi_usd", "cost_hi")):
        want = float(c[ck]) if c[ck] != "" else None
        if row[jk] != want:
            check(False, what, "%s: json %r, csv %r" % (jk, row[jk], c[ck]))
            return False
    return True
# query: the best row, every family's row, equal to the CSV to the last bit; the text's A
qq = doc["query"][0]
check(qq["best"]["system"] == "theia_ngpu8_ngc25.09_nemo" and "%.3g" % qq["best"]["acc_hours"] == "0.796",
      "json query: the best row is the text's", qq["best"]["system"])
n = 0
for fam in qq["families"]:
    if fam["row"]:
        n += csv_equal(fam["row"], "json query row equals csv")
        m = re.search(r"family      %s: .*\n    observed  [^\n]*\(N=(\d+)\): T ([\d.]+) min, A ([\d.e+-]+)" % re.escape(fam["family"]), q)
        if not m or int(m.group(1)) != fam["row"]["accelerators"] or "%.2f" % fam["row"]["minutes"] != m.group(2):
            check(False, "json query row equals the text", fam["family"])
check(n >= 5, "json query: %d families' rows equal --print csv exactly" % n)
# predict: each family's T and interval as the text rounds them
pp = doc["predict"][0]
k = 0
for fam in pp["families"]:
    if not fam["ok"]:
        check(("  %s: not predicted: %s" % (fam["family"], fam["why"])) in p, "json predict refusal is the text's", fam["family"])
        continue
    mi = fam["minutes"]
    sig = lambda v: ("%#.3g" % v).rstrip(".")  # three significant digits, as the text keeps them
    law = "(throughput law x RCP at GBS %d) " % fam["gbs"] if fam["law"] == "throughput_rcp" else ""
    txt = "  %s: %sN %d: T %s (%s..%s) min" % (fam["family"], law, pp["n"], sig(mi["value"]), sig(mi["lo"]), sig(mi["hi"]))
    k += 1
    check(txt in p, "json predict equals the text: " + fam["family"], txt)
    line = next((l for l in p.split("\n") if l.startswith(txt)), "")
    check(line.endswith(("; " if fam["poor"] else "; fit ") + fam["verdict"] +
                        (" (time law: %s)" % fam["split_not_used"] if fam["split_not_used"] else "")),
          "json predict: the verdict beside the text's number: " + fam["family"], line)
check(k >= 1, "json predict: %d families predicted" % k)
# trend: every cell's text is the text report's, in order
tr = doc["trend"][0]
lines = t.split("\n")
for fam in tr["families"]:
    line = next((l for l in lines if l.startswith(fam["family"] + "  ")), "")
    cells = [c["text"] if c else "-" for c in fam["cells"]]
    got = re.split(r"\s{2,}", line[len(fam["family"]):].strip())
    check(got == cells, "json trend row equals the text: " + fam["family"], "%r %r" % (got, cells))
check(tr["rounds"] == re.findall(r"v\d+\.\d+", lines[1]), "json trend rounds are the text's")
# summary: each family's bracket text and reference
for g in doc["summary"][0]["groups"]:
    blk = "  family      %s\n    reference   %s%s%s (N=%d, %.2f min)\n    bracket     %s" % (
        g["family"], g["reference"]["submitter"], "/" if g["reference"]["submitter"] else "",
        g["reference"]["system"],
        g["reference"]["accelerators"], g["reference"]["minutes"], g["bracket"]["text"])
    check(blk in s, "json summary group equals the text: " + g["family"], blk)
# fit: the USL parameters as the text prints them (6 significant digits)
for ff in doc["fit"][0]["families"]:
    if ff["usl"]:
        u = ff["usl"]
        want = "lambda %s" % ("%.6g" % u["lambda"])
        check(want in fit.split("  %s: " % ff["family"])[1].split("\n")[0], "json fit lambda equals the text: " + ff["family"], want)
# pareto: the rows, fastest first, equal to csv and to the text
pr = doc["pareto"][0]["rows"]
names = re.findall(r"^  (\S+)\s+N=", pa, re.M)
check([r["system"] for r in pr] == names, "json pareto rows are the text's", "%r %r" % ([r["system"] for r in pr], names))
check(all(csv_equal(r, "json pareto row equals csv") for r in pr), "json pareto rows equal --print csv exactly")
sys.exit(1 if bad else 0)
EOF
	"$py" "$TMP/jcheck.py" "$TMP/j" "$TMP/csv" "$TMP/qf" "$TMP/p2f" "$TMP/t" "$TMP/s" "$TMP/f" "$TMP/pa" >"$TMP/jr" 2>&1
	tap_of "$TMP/jr"
fi

# ---- prediction against SciPy, over every shipped round x workload ----
if [ -z "$pysci" ]; then
	skip "--predict agrees with SciPy" "python3-scipy is missing (apt-get install python3-scipy)"
else
	"$pysci" - "$GS_TOP"/data/mlperf_training_*.csv >"$TMP/pairs" <<'EOF'
import csv, sys
seen = []
for path in sys.argv[1:]:
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if (row["round"], row["benchmark"]) not in seen:
                seen.append((row["round"], row["benchmark"]))
for r, b in seen:
    print("%s\t%s" % (r, b))
EOF
	# one SciPy process for every pair (its start costs more than a fit); N 4 and 3000 in turn
	i=0
	set --
	while IFS="$(printf '\t')" read -r r w; do
		i=$((i + 1))
		# a sanitizer build is many times slower: every third pair there (the normal build all)
		[ "${SANITIZE:-}" = 1 ] && [ $((i % 3)) -ne 1 ] && continue
		n=4
		[ $((i % 2)) -eq 0 ] && n=3000
		"$GPUSCALE" --print csv --round "$r" -w "$w" >"$TMP/pc$i.csv" 2>/dev/null &&
			"$GPUSCALE" --format json --print predict --predict $n --round "$r" -w "$w" >"$TMP/pj$i" 2>/dev/null &&
			set -- "$@" "$TMP/pc$i.csv" "$TMP/pj$i"
	done <"$TMP/pairs"
	"$pysci" "$GS_TOP/tests/tools/predict_ref.py" "$@" >"$TMP/sci" 2>&1
	fails=$(grep -c '^FAIL' "$TMP/sci")
	checked=$(awk -F'\t' '$1 == "CHECKED" { s += $2 } END { print s + 0 }' "$TMP/sci")
	if [ "$fails" -eq 0 ] && [ "$checked" -ge 5 ] && grep -q '^PASS' "$TMP/sci"; then
		ok "--predict agrees with SciPy: $checked family predictions, $(grep -c '^PASS' "$TMP/sci") checks"
	else
		nok "--predict agrees with SciPy ($checked predictions)" "$(grep -v '^PASS' "$TMP/sci" | head -20)"
	fi
fi

# ---- option errors ----
expect_exit "--format json with a report that has no JSON form is a usage error" 2 \
	"$GPUSCALE" --format json --print csv -w bert
contains "... and says which have one" "$TMP/err" "only summary, fit, pareto, sensitivity, query, predict and trend"
expect_exit "--print predict without --predict N" 2 "$GPUSCALE" --print predict -w bert
expect_exit "--deadline must be a positive number" 2 "$GPUSCALE" --deadline -3 -w bert
contains "... named" "$TMP/err" "--deadline: '-3' is not a positive number"
expect_exit "--minimize takes four names" 2 "$GPUSCALE" --print query --minimize speed -w bert
contains "... listed" "$TMP/err" "--minimize: 'speed' is not acc-hours, cost, kwh or minutes"
expect_exit "--predict 0 is refused" 2 "$GPUSCALE" --predict 0 -w bert
expect_exit "--format yaml is refused" 2 "$GPUSCALE" --format yaml --print summary
expect_exit "--format json alone needs --print" 2 "$GPUSCALE" --format json
echo "1..$n_"
