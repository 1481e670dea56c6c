#!/usr/bin/env python3
"""Run-to-run intervals computed apart from the C analysis, from the definition in man gpuscale (run-to-run interval), with
the Python standard library only.

  boot_ref.py [--mode paper|family] [--families FILE] RESULTS.csv ROUND BENCHMARK [GPUSCALE.csv]
      prints, for every row of ROUND x BENCHMARK, against its reference (fewest accelerators,
      then the slowest, then system id) among all the rows (--mode paper) or among the rows of
      its accelerator family (--mode family, the default, as gpuscale's):
      submitter,system,minutes_ci_lo,minutes_ci_hi,e_prime_ci_lo,e_prime_ci_hi
      (empty fields when the row has fewer than 3 runs); numbers in repr (shortest exact).
      With GPUSCALE.csv (the output of gpuscale --print csv for the same rows and mode),
      compares instead: the same rows, each interval bound equal to the last bit; exit 1
      otherwise.
  boot_ref.py [--families FILE] --batch JOBS
      makes many such comparisons in one run, each row's draws made once: each line of JOBS is
      MODE, RESULTS.csv, ROUND, BENCHMARK, GPUSCALE.csv and OUT, tab separated; the comparison's
      lines are written to OUT, ending in "exit 0" (equal) or "exit 1".
      The family comes from the families table (pattern,vendor,family: the first pattern found
      in the accelerator's name, ASCII case folded; no match: the accelerator's name, or
      "unknown" when it is empty): FILE, else the families.csv beside RESULTS.csv, else the
      source tree's data/families.csv.

The draws: each row has its own splitmix64 stream seeded with FNV-1a 64 of
round NUL benchmark NUL submitter NUL system NUL, xor "bootstra"; each of the 1000 resamples
takes k runs of the row's runs in ascending order (as the loader keeps them, whatever order
run_minutes lists them in), index = ((next >> 32) * k) >> 32; the resample is sorted, the olympic window
(m = 4 for unet3d, else 1; failed runs count as dropped slow ones) averaged in ascending order,
times the scaling factor. Percentiles 5 and 95 by linear interpolation between closest ranks.
S = T_ref,b / T_b paired b by b (the reference with itself: 1; a reference with fewer than
3 runs: its official T); E' = S percentile * N_ref / N.
"""
import csv
import math
import os
import sys

B = 1000
SEED = 0x626F6F7473747261
M64 = (1 << 64) - 1


def fnv1a(h, s):
    for c in s.encode() + b"\0":
        h = ((h ^ c) * 0x100000001B3) & M64
    return h


def seed_of(row):
    h = 0xCBF29CE484222325
    for key in ("round", "benchmark", "submitter", "system"):
        h = fnv1a(h, row.get(key, ""))
    return h ^ SEED


def window(ok, failed, m):
    if failed > m:
        return None
    lo = min(m, ok)
    hi = ok - (m - failed) if ok >= m - failed else 0
    return (lo, hi) if hi > lo else None


_DRAWN = {}


def draws(row):
    """The row's B resampled official times in draw order, or None (drawn once per row: a batch
    meets each row in both modes)."""
    key = tuple(row.get(k, "") for k in ("round", "benchmark", "submitter", "system",
                                         "run_minutes", "runs_failed", "scaling_factor"))
    if key not in _DRAWN:
        _DRAWN[key] = draw(row)
    return _DRAWN[key]


def draw(row):
    # ascending, as the format has them and the loader puts a list written otherwise
    runs = sorted(float(x) for x in row.get("run_minutes", "").split(";") if x.strip())
    k = len(runs)
    failed = int(row["runs_failed"]) if row.get("runs_failed", "").strip() else 0
    failed = max(failed, 0)
    m = 4 if row["benchmark"] == "unet3d" else 1
    w = window(k, failed, m)
    if k < 3 or w is None:
        return None
    lo, hi = w
    sf = float(row["scaling_factor"]) if row.get("scaling_factor", "").strip() else 1.0
    if not (sf > 0 and math.isfinite(sf)):
        sf = 1.0
    # splitmix64, written out in the loop: the draws are most of the time of a batch
    st = seed_of(row)
    out = []
    for _ in range(B):
        s = []
        for _ in range(k):
            st = (st + 0x9E3779B97F4A7C15) & M64
            z = st
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            s.append(runs[(((z ^ (z >> 31)) >> 32) * k) >> 32])
        s.sort()
        total = 0.0
        for v in s[lo:hi]:
            total += v
        out.append(total / (hi - lo) * sf)
    return out


def pct(x, q):
    h = (B - 1) * q
    i = math.floor(h)
    a = x[i]
    b = x[min(i + 1, B - 1)]
    return a + (h - i) * (b - a)


def fold(s):
    """ASCII case folding only, as the C code's (a non-ASCII letter stays as it is)."""
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


def families_of(path):
    with open(path, newline="") as f:
        return [(fold(r["pattern"].strip()), r["family"].strip()) for r in csv.DictReader(f)]


def family_of(rules, acc):
    acc = acc.strip()
    for pat, fam in rules:
        if pat in fold(acc):
            return fam
    return acc if acc else "unknown"


def reference(rows):
    """The fewest accelerators, the slowest of them, then the system id (byte order)."""
    nmin = min(int(r["accelerators"]) for r in rows)
    cands = [r for r in rows if int(r["accelerators"]) == nmin]
    cands.sort(key=lambda r: (-float(r["minutes"]), r["system"].encode()))
    return cands[0]


_READ = {}


def compute(path, rnd, bench, mode="family", families=None):
    if path not in _READ:
        with open(path, newline="") as f:
            _READ[path] = list(csv.DictReader(f))
    # a CPU-only row (0 accelerators) has no E': no view holds it
    rows = [r for r in _READ[path] if r["round"] == rnd and r["benchmark"] == bench
            and int(r["accelerators"]) > 0]
    groups = {}
    if mode == "family":
        rules = families_of(families)
        for r in rows:
            groups.setdefault(family_of(rules, r.get("accelerator", "")), []).append(r)
    else:
        groups[None] = rows
    out = {}
    for grp in groups.values():
        compute_group(grp, out)
    return out


def compute_group(rows, out):
    ref = reference(rows)
    tref = draws(ref)
    for r in rows:
        key = (r["submitter"], r["system"])
        t = draws(r)
        if t is None:
            out[key] = [None] * 4
            continue
        if r is ref:
            q = [v / v for v in t]
        elif tref is not None:
            q = [a / b for a, b in zip(tref, t)]
        else:
            q = [float(ref["minutes"]) / b for b in t]
        t = sorted(t)
        q = sorted(q)
        nr, n = float(ref["accelerators"]), float(r["accelerators"])
        out[key] = [pct(t, 0.05), pct(t, 0.95), pct(q, 0.05) * nr / n, pct(q, 0.95) * nr / n]


def families_for(results, families):
    if families is None:
        families = os.path.join(os.path.dirname(os.path.abspath(results)), "families.csv")
        if not os.path.exists(families):
            families = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "data", "families.csv")
    return families


def compare(results, rnd, bench, mode, families, gpuscale_csv):
    """The lines of the comparison with gpuscale's CSV, and 1 when they differ, else 0."""
    want = compute(results, rnd, bench, mode, families_for(results, families))
    cols = ("minutes_ci_lo", "minutes_ci_hi", "e_prime_ci_lo", "e_prime_ci_hi")
    with open(gpuscale_csv, newline="") as f:
        got = {(r["submitter"], r["system"]): [float(r[c]) if r[c] else None for c in cols]
               for r in csv.DictReader(f)}
    lines, bad = [], 0
    if set(got) != set(want):
        lines.append(f"rows differ: {sorted(set(got) ^ set(want))}")
        bad += 1
    for key in sorted(set(got) & set(want)):
        if got[key] != want[key]:
            lines.append(f"{key}: gpuscale {got[key]} reference {want[key]}")
            bad += 1
    lines.append(f"{len(want)} rows, {bad} differences")
    return lines, 1 if bad else 0


def batch(path, families):
    """Each line of path: MODE TAB RESULTS TAB ROUND TAB BENCHMARK TAB GPUSCALE.csv TAB OUT;
    the comparison's lines go to OUT, then "exit 0" or "exit 1" (no such line: it did not
    finish)."""
    with open(path) as f:
        jobs = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    for job in jobs:
        if len(job) != 6 or job[0] not in ("paper", "family"):
            sys.exit(f"{path}: not a job: {job}")
    for mode, results, rnd, bench, got, out in jobs:
        lines, rc = compare(results, rnd, bench, mode, families, got)
        with open(out, "w") as f:
            f.write("\n".join(lines) + f"\nexit {rc}\n")
    return 0


def main():
    args = sys.argv[1:]
    mode, families, jobs = "family", None, None
    while args and args[0].startswith("--"):
        if args[0] == "--mode" and len(args) > 1 and args[1] in ("paper", "family"):
            mode = args[1]
        elif args[0] == "--families" and len(args) > 1:
            families = args[1]
        elif args[0] == "--batch" and len(args) > 1:
            jobs = args[1]
        else:
            sys.exit(__doc__)
        args = args[2:]
    if jobs is not None:
        if args:
            sys.exit(__doc__)
        return batch(jobs, families)
    if len(args) not in (3, 4):
        sys.exit(__doc__)
    if len(args) < 4:
        want = compute(args[0], args[1], args[2], mode, families_for(args[0], families))
        for (sub, sysid), v in want.items():
            print(f"{sub},{sysid}," + ",".join("" if x is None else repr(x) for x in v))
        return 0
    lines, rc = compare(args[0], args[1], args[2], mode, families, args[3])
    print("\n".join(lines))
    return rc


if __name__ == "__main__":
    sys.exit(main())
