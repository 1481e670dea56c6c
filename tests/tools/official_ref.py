#!/usr/bin/env python3
"""Compares an importer CSV with the official result summarizer's table of the same round
(../shared/mlperf/official/official_summarizer_vX.Y.csv: one row per system, one column per
benchmark, the official time-to-train in minutes, blank for no score).

  official_ref.py OFFICIAL CSV [TOTAL]

Every official cell must be a row of the CSV (system id from details_url,
.../<submitter>/systems/<system>.json, and benchmark; the submitter where several have the id) with minutes that print as the official value does to 6 decimals (the CSV's digits), and the CSV must have
no row the official table leaves blank or lacks. With TOTAL, the table must have that many
cells. Benchmark columns are the ids the round published (`ssd` is `retinanet` from v2.0 on,
`gnn` is `rgat`), as the importer writes them. Exit 1 on any difference.
"""
import csv
import os
import sys

META = {"division", "availability", "submitter", "system", "number_of_nodes",
        "host_processor_model_name", "host_processors_count", "accelerator_model_name",
        "accelerators_count", "framework", "notes", "private_id", "details_url", "code_url"}
# every official table is of v2.0 or later: the ids the project keeps across rounds
BENCH_ID = {"ssd": "retinanet", "gnn": "rgat"}


def official(path):
    """[(names the submitter may have, system, benchmark, minutes)] of every official cell."""
    cells = []
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            # .../<submitter folder>/systems/<system>.json; a few folders were renamed after
            # publication, so the submitter's display name is a second way to match
            parts = r["details_url"].rstrip("/").split("/")
            system = parts[-1][:-5] if parts[-1].endswith(".json") else parts[-1]
            names = {r["submitter"].lower()} | ({parts[-3].lower()} if len(parts) >= 3 else set())
            for col, v in r.items():
                if col in META or v is None or v.strip() == "":
                    continue
                cells.append((names, system, BENCH_ID.get(col, col), float(v)))
    return cells


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    want = official(sys.argv[1])
    rows = {}
    with open(sys.argv[2], newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows.setdefault((r["system"], r["benchmark"]), []).append([r["submitter"], r["minutes"], False])
    bad = 0
    if len(sys.argv) == 4 and len(want) != int(sys.argv[3]):
        print(f"the official table has {len(want)} cells, not {sys.argv[3]}")
        bad += 1
    for names, system, bench, minutes in want:
        cand = [c for c in rows.get((system, bench), []) if not c[2]]
        # one system id under several submitters: the submitter says which
        if len(cand) > 1:
            cand = [c for c in cand if c[0].lower() in names]
        if len(cand) != 1:
            print("official cell missing from the CSV:", sorted(names)[0], system, bench, minutes); bad += 1
            continue
        cand[0][2] = True
        # the printed digits: the official double rounded to 6 decimals, as the CSV is written
        if f"{minutes:.6f}" != cand[0][1]:
            print("differs:", cand[0][0], system, bench, f"official {minutes!r} prints {minutes:.6f}, the CSV {cand[0][1]}"); bad += 1
    n = 0
    for (system, bench), cs in sorted(rows.items()):
        for c in cs:
            n += 1
            if not c[2]:
                print("row the official table does not score:", c[0], system, bench, c[1]); bad += 1
    print(f"{len(want)} official cells, {n} CSV rows, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
