#!/usr/bin/env python3
"""Reference extractor of convergence, written apart from the C importer from the facts in
../shared/mlperf/README.md ("Convergence"), with the Python standard library only.

  convergence_ref.py TREE CSV          prints, per row of the importer's CSV of TREE,
                                       source,gbs,samples_to_converge,convergence_unit,run_samples
  convergence_ref.py --check TREE CSV  compares those columns with the CSV's; exit 1 on any
                                       difference, each one printed

The rows, and which runs of a row are scored and in what order, are the CSV's (run_files,
failed_files: the reference scorer score_ref.py checks those); this tool reads every scored log
itself. Per run: the global batch size is the first `global_batch_size` event's value; the
convergence point comes from the eval_accuracy events before the first run_stop:
  - samples_count of the last one: llama2_70b_lora, flux1, llama31_405b, llama31_8b,
    gpt_oss_20b, deepseekv3_671b, qwen35_397b_grpo, dlrm_v4_hstu;
  - stable_diffusion: the smallest point where FID <= 90 and CLIP >= 0.15 (samples_count, or
    step_num x GBS in v3.1);
  - bert: epoch_num of the last one, but when that is below the GBS (an epoch or block index,
    not a sample count: some v2.0-v2.1 logs) the value of the last train_samples event logged
    after the first eval_accuracy;
  - dlrm (1-based epochs): epoch_num of the last one minus 1, rounded to 3 decimals;
  - epoch_num of the last one, rounded to 3 decimals, for every other benchmark;
  - minigo: none.
A point that is not a positive number is none.
The row: GBS when every scored run logs the same one and every run has a point, else every
cell empty; samples_to_converge the mean of the sorted points without the lowest and (when no
run failed) the highest: a failed run counts as the highest; with more than one failed run, no
mean. The mean is summed left to right in sorted order; numbers are written in the fewest of
15, 16 or 17 significant digits (%g) that read back. rcp_samples is not checked here.
"""
import csv
import json
import os
import re
import sys

# the CSV's way of writing a number, as rcp_means.py writes data/rcp.csv
from rcp_means import text

MARK = ":::MLLOG "
SAMPLES_COUNT = {"llama2_70b_lora", "flux1", "llama31_405b", "llama31_8b", "gpt_oss_20b",
                 "deepseekv3_671b", "qwen35_397b_grpo", "dlrm_v4_hstu"}
UNIT = {"bert": "samples", "gpt3": "tokens", "stable_diffusion": "samples"}


def version(round_name):
    m = re.fullmatch(r"[vV]?(\d+)\.(\d+)", round_name)
    return int(m.group(1)) * 100 + int(m.group(2)) if m else None


def unit(bench, rnd):
    if bench in SAMPLES_COUNT:
        return "samples"
    if bench == "unet3d":
        v = version(rnd)
        return "samples" if v is not None and v >= 301 else "epochs"
    return UNIT.get(bench, "epochs")


def events(path):
    """The MLLOG events of a log up to its first run_stop, in file order."""
    out = []
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode("utf-8", "replace")
            i = line.find(MARK)
            if i < 0:
                continue
            try:
                ev = json.loads(line[i + len(MARK):])
            except ValueError:
                continue
            if not isinstance(ev, dict):
                continue
            out.append(ev)
            if ev.get("key") == "run_stop":
                break
    return out


def num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x == x \
        and abs(x) != float("inf")


def meta(ev, name):
    md = ev.get("metadata")
    v = md.get(name) if isinstance(md, dict) else None
    return float(v) if num(v) else None


def run_point(path, bench, rnd):
    """(gbs, point) of one log; None for what it lacks."""
    evs = events(path)
    gbs = None
    for ev in evs:
        if ev.get("key") == "global_batch_size":
            gbs = float(ev["value"]) if num(ev.get("value")) else None
            break
    if bench == "minigo":
        return gbs, None
    evals = [ev for ev in evs if ev.get("key") == "eval_accuracy"]
    v = version(rnd)
    if bench == "stable_diffusion":
        field = "step_num" if v is not None and v < 400 else "samples_count"
        fid, clip = set(), set()
        for ev in evals:
            p, val, md = meta(ev, field), ev.get("value"), ev.get("metadata")
            metric = md.get("metric") if isinstance(md, dict) else None
            if p is None or not num(val):
                continue
            if metric == "FID" and val <= 90:
                fid.add(p)
            elif metric == "CLIP" and val >= 0.15:
                clip.add(p)
        both = sorted(fid & clip)
        if not both:
            return gbs, None
        if field == "step_num":
            return gbs, both[0] * gbs if gbs is not None else None
        return gbs, both[0]
    if not evals:
        return gbs, None
    if bench in SAMPLES_COUNT:
        return gbs, meta(evals[-1], "samples_count")
    p = meta(evals[-1], "epoch_num")
    if p is None:
        return gbs, None
    if bench == "bert" and gbs is not None and p < gbs:
        first = next(i for i, ev in enumerate(evs) if ev.get("key") == "eval_accuracy")
        ts = [ev["value"] for ev in evs[first:] if ev.get("key") == "train_samples"
              and num(ev.get("value"))]
        return gbs, float(ts[-1]) if ts else None
    if bench == "dlrm":
        return gbs, round(p - 1, 3)
    return gbs, round(p, 3)


def row(tree, r):
    bench, rnd = r["benchmark"], r["round"]
    runs = [f for f in r["run_files"].split(";") if f]
    failed = len([f for f in r["failed_files"].split(";") if f])
    pts = [run_point(os.path.join(tree, r["source"], f), bench, rnd) for f in runs]
    pts = [(g, p if p is not None and p > 0 else None) for g, p in pts]
    gbss = {g for g, _ in pts}
    samples = [p for _, p in pts]
    if bench == "minigo" or len(gbss) != 1 or None in gbss or None in samples:
        return "", "", "", ""
    gbs = gbss.pop()
    s = sorted(samples)
    keep = s[1:] if failed else s[1:-1]
    mean = ""
    if failed <= 1 and keep:
        t = 0.0
        for x in keep:
            t += x
        mean = text(t / len(keep))
    return text(gbs), mean, unit(bench, rnd), ";".join(text(x) for x in samples)


def main(argv):
    check = argv[1:2] == ["--check"]
    args = argv[2:] if check else argv[1:]
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    tree, path = args
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    bad = 0
    for r in rows:
        mine = row(tree, r)
        if not check:
            print(",".join((r["source"],) + mine))
            continue
        theirs = tuple(r.get(k, "<absent>") for k in
                       ("gbs", "samples_to_converge", "convergence_unit", "run_samples"))
        if mine != theirs:
            bad += 1
            print("%s: reference %s, CSV %s" % (r["source"], mine, theirs))
    if check:
        print("%d rows, %d differences" % (len(rows), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
