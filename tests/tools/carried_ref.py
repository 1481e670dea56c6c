#!/usr/bin/env python3
"""Checks a cross-round view against run lists found independently in the results CSVs.

usage: carried_ref.py DATA_DIR VIEW.csv FAMILY.json PAPER.json CLUSTERS.txt

DATA_DIR holds the bundled results CSVs (mlperf_training_v*.csv). VIEW.csv is the view's
`--print csv --all-rounds`; FAMILY.json and PAPER.json its `--print summary,fit --format json`
in family and paper mode; CLUSTERS.txt its `--print clusters`. Every row of the view is looked
up in the results files by (round, submitter, system, benchmark); rows with the same accelerator
count and the same run_minutes there are one run list. The view must pool each run list once,
as its earliest round's row (a rank and a cluster), list the others without (carried over), and
count only pooled rows: rows_shown, rows_total, the carried counts, the groups' rows, the fits'
points and the clusters' sizes; every row a summary names as a reference, bracket row,
sensitivity candidate or Pareto row must be pooled, and no run list may be named twice among
the candidates or the Pareto rows. Prints one line per problem; exits 1 when there is any.
"""
import csv
import glob
import json
import os
import re
import sys


def version(r):
    m = re.match(r"v?(\d+)\.(\d+)", r)
    return (int(m.group(1)), int(m.group(2))) if m else (9999, 0)


def main():
    data_dir, view_csv, fam_json, paper_json, clusters_txt = sys.argv[1:6]
    runs = {}
    for path in sorted(glob.glob(os.path.join(data_dir, "mlperf_training_v*.csv"))):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                key = (r["round"], r["submitter"], r["system"], r["benchmark"])
                runs[key] = (r["accelerators"], r.get("run_minutes", ""))
    problems = []
    with open(view_csv, newline="") as f:
        view = list(csv.DictReader(f))
    if not view:
        problems.append("the view has no rows")
    classes = {}
    for r in view:
        key = (r["round"], r["submitter"], r["system"], r["benchmark"])
        if key not in runs:
            problems.append("row %s not found in the results files" % (key,))
            continue
        n, rl = runs[key]
        r["_list"] = (r["benchmark"], n, rl) if rl else None
        if rl:
            classes.setdefault(r["_list"], []).append(r)
    carried = 0
    pooled_lists = {}
    for lst, members in classes.items():
        pooled = [m for m in members if m["rank"] != ""]
        if len(pooled) != 1:
            problems.append("run list of %s pooled %d times (rows: %s)" % (
                members[0]["system"], len(pooled),
                ", ".join("%s %s rank '%s'" % (m["round"], m["system"], m["rank"]) for m in members)))
            continue
        first = min(version(m["round"]) for m in members)
        if version(pooled[0]["round"]) != first:
            problems.append("run list of %s stands as its %s row, not the earliest round's" % (
                pooled[0]["system"], pooled[0]["round"]))
        carried += len(members) - 1
        for m in members:
            if m["rank"] == "" and m["cluster"] != "":
                problems.append("carried-over row %s %s has cluster %s" % (m["round"], m["system"], m["cluster"]))
    for r in view:
        if r.get("_list") is None and r["rank"] == "":
            problems.append("row %s %s without a run list is not pooled" % (r["round"], r["system"]))
    npooled = len(view) - carried
    by_name = {(r["round"], r["submitter"], r["system"]): r for r in view}
    for mode, path in (("family", fam_json), ("paper", paper_json)):
        with open(path) as f:
            doc = json.load(f)
        s = doc["summary"]
        s = s[0] if isinstance(s, list) else s
        want = {"rows_shown": npooled, "rows_total": npooled, "rows_carried_over": carried,
                "rows_carried_over_total": carried}
        for k, v in want.items():
            if s.get(k) != v:
                problems.append("%s: %s is %s, the results files give %d" % (mode, k, s.get(k), v))
        if sum(g["rows"] for g in s["groups"]) != npooled:
            problems.append("%s: the groups hold %d rows, not %d" % (
                mode, sum(g["rows"] for g in s["groups"]), npooled))
        points = sum(ff["points"] for g in s["groups"] for ff in g.get("fits", []))
        if mode == "family" and points != npooled:
            problems.append("family: the fits have %d points, not %d" % (points, npooled))

        def pooled_row(j, what):
            if j is None:
                return None
            r = by_name.get((j["round"], j["submitter"], j["system"]))
            if r is None:
                problems.append("%s: %s %s %s is not a row of the view" % (mode, what, j["round"], j["system"]))
            elif r["rank"] == "" or j.get("carried_over_of") is not None:
                problems.append("%s: %s %s %s is carried over" % (mode, what, j["round"], j["system"]))
            return r

        def once(rows, what):
            seen = {}
            for r in rows:
                if r is not None and r.get("_list") is not None:
                    if r["_list"] in seen:
                        problems.append("%s: %s names one run list twice (%s %s, %s %s)" % (
                            mode, what, seen[r["_list"]]["round"], seen[r["_list"]]["system"],
                            r["round"], r["system"]))
                    seen[r["_list"]] = r

        for g in s["groups"]:
            pooled_row(g["reference"], "reference")
            pooled_row(g["bracket_row"], "bracket row")
            once([pooled_row(c, "candidate") for c in g["sensitivity"]["candidates"]], "the candidates")
        once([pooled_row(p, "Pareto row") for p in s["pareto"]], "the Pareto rows")
    with open(clusters_txt) as f:
        sizes = [int(m.group(1)) for m in re.finditer(r"^\s+cluster\s+\d+\s+(\d+) system", f.read(), re.M)]
    if sum(sizes) != npooled:
        problems.append("the clusters hold %d rows, not %d" % (sum(sizes), npooled))
    for p in problems:
        print(p)
    print("(%d rows, %d run lists, %d carried over)" % (len(view), len(classes), carried))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
