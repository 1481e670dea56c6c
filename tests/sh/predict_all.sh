#!/bin/sh
# Every fitted family of every bundled round and workload gets the law's number from --predict
# and from the query, whatever its verdict, with the verdict beside it; the query's answer is a
# whole number of the family's nodes (the most common accelerators per node of its rows, taken
# here from --print csv, not from the program's own count).
. "$(dirname "$0")/../lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "predictions of every fitted family" "python3 missing"
	echo "1..$n_"
	exit 0
fi
python3 - "$GPUSCALE" "$GS_TOP/data" >"$TMP/res" <<'EOF'
import csv, glob, json, os, subprocess, sys
from collections import Counter
gs, data = sys.argv[1:3]
fitted = predicted = answered = rounded = 0
bad = []
for f in sorted(glob.glob(os.path.join(data, "mlperf_training_v*.csv"))):
    rnd = f.rsplit("_", 1)[1][:-4]
    rows = list(csv.DictReader(open(f, newline="")))
    view = list(csv.DictReader(subprocess.run([gs, "--round", rnd, "--print", "csv"], capture_output=True,
                                              text=True).stdout.splitlines()))
    # a deadline every family's rows meet: 1.5 x the round's slowest row; one run per report
    # kind covers every workload of the round
    d = 1.5 * max(float(r["minutes"]) for r in rows)
    args = [gs, "--round", rnd, "--predict", "1000", "--deadline", repr(d)]
    j = subprocess.run(args + ["--print", "fit,predict,query", "--format", "json"], capture_output=True, text=True)
    txt_all = subprocess.run(args + ["--print", "predict,query"], capture_output=True, text=True).stdout
    if j.returncode != 0:
        bad.append("%s: exit %d" % (rnd, j.returncode))
        continue
    full = json.loads(j.stdout)
    # the text's blocks by workload: each starts with a title line "Label (id), round ..."
    blocks = {}
    for line in txt_all.split("\n"):
        if line and not line.startswith(" "):
            cur = line.split("(", 1)[1].split(")", 1)[0]
        elif line:
            blocks.setdefault(cur, []).append(line)
    for k in range(len(full["fit"])):
        wl = full["fit"][k]["workload"]
        doc = {"fit": [full["fit"][k]], "predict": [full["predict"][k]], "query": [full["query"][k]]}
        txt = "\n".join(blocks.get(wl, []))
        per_node = {}
        for r in view:
            if r["benchmark"] == wl and r["accelerators_per_node"] not in ("", "0"):
                per_node.setdefault(r["family"], Counter())[int(r["accelerators_per_node"])] += 1
        usable = {x["family"]: x for x in doc["fit"][0]["families"] if x["usl"] is not None}
        fitted += len(usable)
        for p in doc["predict"][0]["families"]:
            if p["family"] not in usable:
                continue
            if not p["ok"] or p["minutes"]["value"] is None:
                bad.append("%s %s %s: --predict refused: %s" % (rnd, wl, p["family"], p["why"]))
                continue
            predicted += 1
            lead = "; " if p.get("poor") else "; fit "
            law = "(throughput law x RCP at GBS %d) " % p["gbs"] if p.get("law") == "throughput_rcp" else ""
            note = " (time law: %s)" % p["split_not_used"] if p.get("split_not_used") else ""
            line = next((l for l in txt.split("\n") if l.startswith("  %s: %sN 1000: T " % (p["family"], law))), "")
            if not line.endswith(lead + p.get("verdict", "") + note) or \
                    (not law and p.get("verdict", "") != usable[p["family"]]["verdict"]["text"]):
                bad.append("%s %s %s: verdict not beside the number: %r" % (rnd, wl, p["family"], line))
        for q in doc["query"][0]["families"]:
            if q["family"] not in usable:
                continue
            p = q["predicted"]
            if not p or not p["ok"]:
                bad.append("%s %s %s: query gave no number: %s" % (rnd, wl, q["family"], p and p["why"]))
                continue
            answered += 1
            c = per_node.get(q["family"])
            want = min(c, key=lambda k: (-c[k], k)) if c else None
            if p.get("node") != want:
                bad.append("%s %s %s: node %r, the rows' most common %r" % (rnd, wl, q["family"], p.get("node"), want))
            elif want and (p["n"] % want or p["n"] < p["n_law"] or p["n"] - p["n_law"] >= want):
                bad.append("%s %s %s: N %r is not the law's %r rounded up to nodes of %d"
                           % (rnd, wl, q["family"], p["n"], p["n_law"], want))
            elif want:
                rounded += 1
                nodes = "(%d node%s of %d" % (p["n"] // want, "" if p["n"] == want else "s", want)
                if ("N %d %s" % (p["n"], nodes)) not in txt:
                    bad.append("%s %s %s: the text does not say %s" % (rnd, wl, q["family"], nodes))
print("PASS\t%d usable fits over the bundled rounds" % fitted if fitted >= 40 else "FAIL\tonly %d fits" % fitted)
print("PASS\t--predict gives a number for all %d, the verdict beside it" % predicted
      if predicted == fitted else "FAIL\t--predict\t%s" % " | ".join(bad[:5]))
print("PASS\tthe query answers all %d, %d in whole nodes named in the text" % (answered, rounded)
      if answered == fitted and not bad else "FAIL\tquery\t%s" % " | ".join(bad[:5]))
EOF
while IFS="$(printf '\t')" read -r st what detail; do
	case $st in
	PASS) ok "$what" ;;
	*) nok "$what" "$detail" ;;
	esac
done <"$TMP/res"
[ -s "$TMP/res" ] || nok "checker output" "none"
echo "1..$n_"
