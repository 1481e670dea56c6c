#!/usr/bin/env python3
"""Independent check of the comparison groups of `gpuscale --print summary`.

For every bundled round x workload x mode (paper, family) x theta (0.5, 0.8, 1.2) it runs
`gpuscale --print summary,csv`, recomputes from the CSV rows alone each group's reference
(fewest accelerators, ties to the slowest, then system id), E' = (T_ref / T) * (N_ref / N), and
the break-even bracket (lower = N of the fastest row with E' >= theta, ties by system id then
submitter; upper = the smallest larger N at which every row of the group is below theta), and
checks the summary against it: the bracket text, that no range or sensitivity is reversed,
that no group's break-even row or candidate belongs to another family, and that single-row
groups say "one row". Prints TAP.

usage: groups_ref.py GPUSCALE DATA_DIR [--quick]   (--quick: theta 0.8 only, for slow builds)
"""
import csv
import glob
import io
import os
import re
import subprocess
import sys

THETAS = ("0.5", "0.8", "1.2")
MODES = ("paper", "family")

n_test = 0
n_fail = 0


def ok(cond, what):
    global n_test, n_fail
    n_test += 1
    if not cond:
        n_fail += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n_test, what))


def run(gs, args):
    p = subprocess.run([gs] + args, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return p.stdout


def split(out):
    at = out.find("\nrank,")
    return out[:at + 1], list(csv.DictReader(io.StringIO(out[at + 1:])))


def reference(rows):
    return min(rows, key=lambda r: (int(r["accelerators"]), -float(r["minutes"]), r["system"],
                                    r["submitter"]))


def bracket(rows, ref, theta):
    """The bracket text the summary must show for rows against ref."""
    if len(rows) == 1 and rows[0] is ref:
        return "one row"
    tr, nr = float(ref["minutes"]), float(ref["accelerators"])

    def ep(r):
        return tr / float(r["minutes"]) * nr / float(r["accelerators"])

    reach = [r for r in rows if ep(r) >= theta]
    if not reach:
        return "none at theta"
    low = min(reach, key=lambda r: (float(r["minutes"]), r["system"], r["submitter"]))
    lo = int(low["accelerators"])
    larger = sorted({int(r["accelerators"]) for r in rows if int(r["accelerators"]) > lo})
    for n in larger:
        if all(ep(r) < theta for r in rows if int(r["accelerators"]) == n):
            return "%d..<%d" % (lo, n)
    if larger:
        return "%d+ (no N beyond %d wholly below theta)" % (lo, lo)
    return "%d+ (no row beyond %d)" % (lo, lo)


def name_of(r, qualified):
    return "%s/%s" % (r["submitter"], r["system"]) if qualified else r["system"]


def check_range(text, what):
    m = re.match(r"N (\d+)(?:\.\.(\d+))?", text)
    if text.startswith("none"):
        return
    ok(m is not None and (m.group(2) is None or int(m.group(1)) < int(m.group(2))),
       "%s: range '%s' not reversed" % (what, text.split("  ")[0]))


def check_cands(line, fam_of, family, what):
    """Every candidate named on a sensitivity line belongs to the group's family."""
    body = line.split(":", 1)[1] if ":" in line else ""
    for m in re.finditer(r"(\S+) \(\d+\.\d+ min\) -> ", body):
        sysid = m.group(1)
        fams = fam_of.get(sysid, set())
        ok(family is None or fams == {family},
           "%s: candidate %s is of %s" % (what, sysid, family))


def check_one(gs, rnd, wl, mode, theta):
    what = "%s %s %s theta %s" % (rnd, wl, mode, theta)
    out = run(gs, ["--round", rnd, "-w", wl, "-m", mode, "--theta", theta, "--print", "summary,csv"])
    summary, rows = split(out)
    if not rows:
        ok("no rows shown" in summary, what + ": no rows")
        return
    th = float(theta)
    fam_of = {}
    for r in rows:
        fam_of.setdefault(r["system"], set()).add(r["family"])
        fam_of.setdefault("%s/%s" % (r["submitter"], r["system"]), set()).add(r["family"])
    lines = summary.splitlines()
    if mode == "paper":
        ref = reference(rows)
        want = bracket(rows, ref, th)
        be = [l for l in lines if l.startswith("  break-even  ")][0]
        got = be.split(" -> ", 1)[1]
        ok(got.startswith(want), "%s: bracket '%s' (independent: '%s')" % (what, got[:40], want))
        for l in lines:
            if l.startswith("  range       "):
                check_range(l[14:], what)
            if l.startswith("  sensitivity "):
                check_range(l[14:], what + " sensitivity")
        return
    groups = {}
    for r in rows:
        groups.setdefault(r["family"], []).append(r)
    blocks = {}
    cur = None
    for l in lines:
        if l.startswith("  family      "):
            cur = l[14:]
            blocks[cur] = []
        elif cur is not None and l.startswith("    "):
            blocks[cur].append(l)
        else:
            cur = None
    ok(sorted(blocks) == sorted(groups), "%s: a block per family (%d)" % (what, len(groups)))
    for fam, grows in groups.items():
        blk = blocks.get(fam, [])
        ref = reference(grows)
        want = bracket(grows, ref, th)
        br = [l for l in blk if l.startswith("    bracket     ")]
        got = br[0][16:] if br else ""
        ok(got.startswith(want), "%s %s: bracket '%s' (independent: '%s')" % (what, fam, got[:40], want))
        if len(grows) == 1:
            ok(got == "one row", "%s %s: a single-row group says one row" % (what, fam))
        rest = got[len(want):].split()
        if rest:
            ok(fam_of.get(rest[0], set()) == {fam},
               "%s %s: break-even row %s is of the family" % (what, fam, rest[0]))
        refl = [l for l in blk if l.startswith("    reference   ")]
        ok(bool(refl) and ("/%s (N=" % ref["system"]) in refl[0],
           "%s %s: reference %s" % (what, fam, ref["system"]))
        for l in blk:
            if l.startswith("    range       "):
                check_range(l[16:], "%s %s" % (what, fam))
            if l.startswith("    sensitivity "):
                check_range(l[16:], "%s %s sensitivity" % (what, fam))
                check_cands(l, fam_of, fam, "%s %s" % (what, fam))


def main():
    global THETAS
    gs, data = sys.argv[1], sys.argv[2]
    if "--quick" in sys.argv[3:]:
        THETAS = ("0.8",)
    rounds = sorted(re.sub(r".*mlperf_training_(.*)\.csv$", r"\1", f)
                    for f in glob.glob(os.path.join(data, "mlperf_training_*.csv")))
    if not rounds:
        ok(False, "bundled rounds found in " + data)
    for rnd in rounds:
        heads = run(gs, ["--round", rnd, "--print", "summary"])
        wls = re.findall(r"^\S.* \((\S+)\), round ", heads, re.M)
        ok(len(wls) > 0, "%s: workloads listed" % rnd)
        for wl in wls:
            for mode in MODES:
                for theta in THETAS:
                    try:
                        check_one(gs, rnd, wl, mode, theta)
                    except (RuntimeError, IndexError) as e:
                        ok(False, "%s %s %s %s: %s" % (rnd, wl, mode, theta, e))
    print("1..%d" % n_test)
    return 1 if n_fail else 0


if __name__ == "__main__":
    sys.exit(main())
