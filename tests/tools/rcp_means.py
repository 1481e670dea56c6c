#!/usr/bin/env python3
"""RCP means from the official reference convergence points, with the Python standard library.

  rcp_means.py RCPDIR > data/rcp.csv     RCPDIR holds training_X.Y.Z/rcps_BENCH.json
  rcp_means.py --check RCPDIR CSV        exit 1 when CSV is not what RCPDIR gives

One row per ruleset, benchmark and reference batch size: the olympic mean of its reference
runs' convergence points as the official RCP checker computes it (sorted, the lowest and the
highest dropped, four of each for unet3d; summed left to right), in the unit the logs use:
  - the benchmark is the project's one id across rounds: ssd from 2.0.0 is retinanet, gnn rgat;
  - dlrm (rulesets up to 2.1.0) logs 1-based epochs (1.8 = 0.8 of an epoch): every point is
    made 0-based (x - 1) before the mean, as the importer makes the runs' points, so that
    ratios of them are ratios of samples;
  - stable_diffusion 3.1.0 counts steps (unit "steps": the importer multiplies the mean at a
    GBS by that GBS); from 4.0.0 samples;
  - unet3d counts epochs up to 3.0.0 and samples from 3.1.0; gpt3 tokens.
"""
import glob
import json
import os
import sys

SAMPLES = {"llama2_70b_lora", "flux1", "llama31_405b", "llama31_8b", "gpt_oss_20b",
           "deepseekv3_671b", "qwen35_397b_grpo", "dlrm_v4_hstu", "bert"}
HEADER = "ruleset,benchmark,bs,samples_mean,unit,runs,dropped"


def version(ruleset):
    x, y = ruleset.split(".")[:2]
    return int(x) * 100 + int(y)


def bench_id(name, v):
    if name == "ssd" and v >= 200:
        return "retinanet"
    return {"gnn": "rgat", "dlrmv4": "dlrm_v4_hstu"}.get(name, name)


def unit(bench, v):
    if bench in SAMPLES:
        return "samples"
    if bench == "stable_diffusion":
        return "steps" if v < 400 else "samples"
    if bench == "unet3d":
        return "samples" if v >= 301 else "epochs"
    if bench == "gpt3":
        return "tokens"
    return "epochs"


def text(x):
    for p in (15, 16, 17):
        s = "%.*g" % (p, x)
        if float(s) == x:
            return s
    return repr(x)


def rows(top):
    out = []
    for path in sorted(glob.glob(os.path.join(top, "training_*", "rcps_*.json"))):
        ruleset = os.path.basename(os.path.dirname(path))[len("training_"):]
        name = os.path.basename(path)[len("rcps_"):-len(".json")]
        v = version(ruleset)
        bench = bench_id(name, v)
        drop = 4 if bench == "unet3d" else 1
        with open(path, encoding="utf-8") as f:
            recs = json.load(f)
        pts = []
        for rec in recs.values():
            key = [k for k in rec if k.lower() in ("epochs to converge", "samples to converge")][0]
            vals = [float(x) - 1 if bench == "dlrm" else float(x) for x in rec[key]]
            vals.sort()
            keep = vals[drop:len(vals) - drop]
            t = 0.0
            for x in keep:
                t += x
            pts.append((float(rec["BS"]), t / len(keep), len(vals)))
        for bs, mean, n in sorted(pts):
            out.append("%s,%s,%s,%s,%s,%d,%d" % (ruleset, bench, text(bs), text(mean),
                                                unit(bench, v), n, 2 * drop))
    return out


def main(argv):
    if len(argv) == 2:
        print(HEADER)
        print("\n".join(rows(argv[1])))
        return 0
    if len(argv) == 4 and argv[1] == "--check":
        want = HEADER + "\n" + "\n".join(rows(argv[2])) + "\n"
        with open(argv[3], encoding="utf-8") as f:
            got = f.read()
        if got != want:
            print("%s differs from what %s gives" % (argv[3], argv[2]))
            return 1
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
