#!/usr/bin/env python3
"""Reference scorer for MLPerf Training results trees, written apart from the C importer
from the rules in ../shared/mlperf/README.md, with the Python standard library only.

  score_ref.py DIR            prints submitter,system,benchmark,minutes for every scored cell
  score_ref.py DIR CSV        compares with an importer CSV: the same cells, minutes within
                              1e-6, and every other column (counts, scaling factor, run
                              minutes, the systems JSON fields); exit 1 on any difference

Beyond the MLPerf rules, as gpuscale documents: a run whose first run_stop comes before its
first run_start (in the log or in time) fails, and so does one whose length is not a finite
positive number of minutes in doubles (1e308 - -1e308 overflows, a length of 1e-320 ms is 0
minutes); a score that is not a finite positive number (a huge scaling_factor) is no score.
"""
import csv
import json
import math
import os
import sys

MARK = b":::MLLOG "


def run_minutes(path):
    """Raw minutes of one run, or None when the run fails."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    start = stop = None
    stop_first = False
    for line in data.split(b"\n"):
        i = line.find(MARK)
        if i < 0:
            continue
        try:
            ev = json.loads(line[i + len(MARK):].decode("utf-8"))
        except (ValueError, RecursionError):
            return None  # one bad payload fails the whole log
        if not isinstance(ev, dict):
            continue
        key = ev.get("key")
        if key == "run_start" and start is None:
            start = ev
        elif key == "run_stop" and stop is None:
            stop = ev
            stop_first = start is None
    if start is None or stop is None:
        return None
    meta = stop.get("metadata")
    if not isinstance(meta, dict) or meta.get("status") != "success":
        return None
    t0, t1 = start.get("time_ms"), stop.get("time_ms")
    for t in (t0, t1):
        if isinstance(t, bool) or not isinstance(t, (int, float)):
            return None
    try:
        t0, t1 = float(t0), float(t1)  # as the importer reads them: doubles
    except OverflowError:
        return None  # an integer beyond any double
    if not (math.isfinite(t0) and math.isfinite(t1)):
        return None
    if stop_first or t1 <= t0:
        return None
    m = (t1 - t0) / 60000
    return m if math.isfinite(m) and m > 0 else None


def score(folder, bench):
    names = sorted(n for n in os.listdir(folder) if n.startswith("result_") and n.endswith(".txt")
                   and os.path.isfile(os.path.join(folder, n)))
    if not names:
        return None
    times = [run_minutes(os.path.join(folder, n)) for n in names]
    ok = sorted(t for t in times if t is not None)
    d = len(times) - len(ok)
    m = 4 if bench == "unet3d" else 1
    if d > m:
        return None
    kept = ok[m:len(ok) - (m - d)]
    if not kept:
        return None
    s = sum(kept) / len(kept)
    sf = 1.0
    sj = os.path.join(folder, "scaling.json")
    if os.path.exists(sj):
        try:
            with open(sj) as f:
                sf = float(json.load(f)["scaling_factor"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
    if not (math.isfinite(s * sf) and s * sf > 0):
        return None
    return s * sf, len(ok), d, sf, ";".join(minutes_text(t, 4) for t in ok)


def minutes_text(v, decimals):
    """Minutes as the importer writes them: fixed with `decimals` digits from 10**-decimals up
    to 1e15, else the shortest %.Pg (P >= 15) that reads back exactly."""
    if 10.0 ** -decimals <= v < 1e15:
        return f"{v:.{decimals}f}"
    for p in range(15, 18):
        text = "%.*g" % (p, v)
        if float(text) == v:
            return text
    return "%.17g" % v


def system_info(path):
    """The systems JSON fields the CSV repeats, as the importer should write them."""
    with open(path, encoding="utf-8") as f:
        j = json.load(f)
    def text(k):
        v = j.get(k)
        return "".join(c if ord(c) >= 0x20 and c != "\x7f" else "?" for c in v) if isinstance(v, str) else ""
    def count(k):
        v = j[k]
        return int(v.strip()) if isinstance(v, str) else int(v)
    nodes, per = count("number_of_nodes"), count("accelerators_per_node")
    return {"system_name": text("system_name"), "division": text("division"),
            "availability": text("status"), "accelerator": text("accelerator_model_name"),
            "framework": text("framework"), "nodes": str(nodes), "accelerators_per_node": str(per),
            "accelerators": str(nodes * max(per, 1))}


def tree(top):
    cells = {}
    for sub in sorted(os.listdir(top)):
        res = os.path.join(top, sub, "results")
        if not os.path.isdir(res):
            continue
        for system in sorted(os.listdir(res)):
            if not os.path.isfile(os.path.join(top, sub, "systems", system + ".json")):
                continue
            sd = os.path.join(res, system)
            if not os.path.isdir(sd):
                continue
            try:
                info = system_info(os.path.join(top, sub, "systems", system + ".json"))
            except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
                continue  # a systems JSON that cannot be used: the system has no score
            if int(info["nodes"]) < 1 or int(info["accelerators_per_node"]) < 0:
                continue
            for bench in sorted(os.listdir(sd)):
                bd = os.path.join(sd, bench)
                if os.path.isdir(bd):
                    r = score(bd, bench)
                    if r is not None:
                        cells[(sub, system, bench)] = r + (info,)
    return cells


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    ref = tree(sys.argv[1])
    if len(sys.argv) == 2:
        for (sub, system, bench), (v, *_rest) in sorted(ref.items()):
            print(f"{sub},{system},{bench},{v:.6f}")
        return 0
    got = {}
    with open(sys.argv[2], newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            got[(r["submitter"], r["system"], r["benchmark"])] = r
    bad = 0
    for k in sorted(set(ref) | set(got)):
        if k not in got:
            print("missing from CSV:", "/".join(k), ref[k][0]); bad += 1
            continue
        if k not in ref:
            print("not scored by reference:", "/".join(k), got[k]["minutes"]); bad += 1
            continue
        v, nok, d, sf, runs, info = ref[k]
        r = got[k]
        why = []
        if abs(v - float(r["minutes"])) > 1e-6:
            why.append(f"minutes {v:.6f} vs {r['minutes']}")
        if (nok, d) != (int(r["runs_scored"]), int(r["runs_failed"])):
            why.append(f"runs {nok}/{d} vs {r['runs_scored']}/{r['runs_failed']}")
        if sf != float(r["scaling_factor"]):
            why.append(f"scaling_factor {sf!r} vs {r['scaling_factor']}")
        if runs != r["run_minutes"]:
            why.append("run_minutes differ")
        for col, want in info.items():
            if want != r[col]:
                why.append(f"{col} {want!r} vs {r[col]!r}")
        if why:
            print("differs:", "/".join(k), "; ".join(why)); bad += 1
    print(f"{len(ref)} reference cells, {len(got)} CSV cells, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
