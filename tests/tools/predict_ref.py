#!/usr/bin/env python3
"""Reference prediction at N, written apart from the C code (src/predict.c, src/fit.c) with
SciPy: the USL fitted to a family's (N, T) points by bounded least squares on ln X (SciPy's
trust-region-reflective solver over every point, not GSL's Levenberg-Marquardt over the
distinct N), then the delta method on ln T(N) = ln 60 - a - ln N + ln(1 + s(N-1) + k N(N-1)):
Var = g' C g, C = s^2 (J'J)^-1 over the parameters not held at a bound, s^2 = SSE / (points -
free parameters), the interval ln T +- t(0.95, dof) sqrt(Var) from scipy.stats.t.

  predict_ref.py CSV JSON ...  pairs of files; CSV: `gpuscale --print csv` of one round and workload (columns
                              family, accelerators, minutes); JSON: `gpuscale --format json
                              --print predict --predict N` of the same. For every family the
                              JSON predicts (ok true): T and its interval within 0.5% (two
                              solvers, two weightings of one minimum), E' = t_ref n_ref / (N T)
                              and A = N T / 60 from the JSON's own T to 1e-12, and a family
                              with fewer than 3 distinct N never predicted. Prints
                              "PASS<TAB>what" or "FAIL<TAB>what<TAB>detail"; exit 1 on a FAIL.

A family the JSON predicts from the split law (law "throughput_rcp") is checked the same way
on its throughput: the USL fitted to (N, 60 / X) of its rows with a throughput (charged samples
per minute, the CSV's column), T = S_rcp x (60 / X(N)) / 60 with S_rcp read here from
data/rcp.csv (the olympic means, linear between listed batch sizes) at the GBS of the family's
row nearest N in log N (ties to the fewer accelerators), in the round's ruleset X.Y.0.
"""
import csv
import json
import math
import os
import sys

import numpy as np
from scipy.optimize import least_squares
from scipy.stats import t as student_t


def log_x(p, n):
    a, s, k = p
    return a + np.log(n) - np.log1p(s * (n - 1) + k * n * (n - 1))


def fit(n, t):
    n = np.asarray(n, float)
    y = np.log(60.0 / np.asarray(t, float))
    nmax = n.max()
    best = None
    for s0 in (1e-5, 1e-3, 0.02, 0.2, 0.7):
        for kk in (1e-4, 1e-2, 1.0, 30.0):
            k0 = kk / nmax ** 2
            a0 = float(np.mean(y - np.log(n) + np.log1p(s0 * (n - 1) + k0 * n * (n - 1))))
            r = least_squares(lambda p: y - log_x(p, n), [a0, s0, k0],
                              bounds=([-np.inf, 0.0, 0.0], [np.inf, 1.0, np.inf]),
                              method="trf", x_scale="jac", ftol=1e-15, xtol=1e-15, gtol=1e-15,
                              max_nfev=20000)
            if best is None or r.cost < best.cost:
                best = r
    return best.x, 2 * best.cost, n


def interval(p, sse, n_pts, nmax, n):
    """(T, lo, hi) at n from the fit p = (a, sigma, kappa)."""
    a, s, k = p
    # a parameter at its bound is held there: no variance, no degree of freedom used
    free = [True, s > 1e-9 and s < 1 - 1e-9, k * nmax * nmax > 1e-9]
    d = lambda m: 1 + s * (m - 1) + k * m * (m - 1)
    rows = []
    for m in n_pts:
        row = [-1.0, (m - 1) / d(m), m * (m - 1) / d(m)]
        rows.append([row[j] for j in range(3) if free[j]])
    J = np.array(rows)
    dof = len(n_pts) - J.shape[1]
    T = 60.0 / (math.exp(a) * n / d(n))
    if dof <= 0:
        return T, None, None
    C = sse / dof * np.linalg.inv(J.T @ J)
    g = np.array([x for j, x in enumerate([-1.0, (n - 1) / d(n), n * (n - 1) / d(n)]) if free[j]])
    w = student_t.ppf(0.95, dof) * math.sqrt(float(g @ C @ g))
    return T, T * math.exp(-w), T * math.exp(w)


bad = 0
checked = 0


def out(ok, what, detail=""):
    global bad
    bad += not ok
    print("PASS\t%s" % what if ok else "FAIL\t%s\t%s" % (what, detail))


RCP = {}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "rcp.csv"), newline="") as f:
    for r in csv.DictReader(f):
        RCP.setdefault((r["ruleset"], r["benchmark"]), []).append((float(r["bs"]), float(r["samples_mean"])))


def rcp_at(rnd, bench, gbs):
    pts = sorted(RCP.get((rnd.lstrip("v") + ".0", bench), []))
    for (b0, m0), (b1, m1) in zip(pts, pts[1:]):
        if b0 <= gbs <= b1:
            return m0 if gbs == b0 else m1 if gbs == b1 else m0 + (m1 - m0) * (gbs - b0) / (b1 - b0)
    return pts[0][1] if len(pts) == 1 and pts[0][0] == gbs else None


def one(csv_path, json_path):
    global checked
    fams, thru = {}, {}
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            fams.setdefault(row["family"], []).append((float(row["accelerators"]), float(row["minutes"])))
            if row["throughput"]:
                thru.setdefault(row["family"], []).append((float(row["accelerators"]), 60.0 / float(row["throughput"]),
                                                           float(row["gbs"]) if row["gbs"] else None))
    with open(json_path) as f:
        doc = json.load(f)["predict"][0]
    n = doc["n"]
    for pr in doc["families"]:
        fam = pr["family"]
        pts = fams.get(fam, [])
        what = "%s %s %s N=%g" % (doc["round"], doc["workload"], fam, n)
        if len(set(x for x, _ in pts)) < 3:
            out(not pr["ok"], what + ": fewer than 3 distinct N, not predicted", pr["why"])
            continue
        if not pr["ok"]:
            continue
        checked += 1
        scale = 1.0
        if pr.get("law") == "throughput_rcp":
            pts = [(x, y) for x, y, _ in thru[fam]]
            near = min((r for r in thru[fam] if r[2] is not None), key=lambda r: (abs(math.log(r[0] / n)), r[0]))
            s_rcp = rcp_at(doc["round"], doc["workload"], near[2])
            out(pr["gbs"] == near[2] and s_rcp is not None and abs(pr["rcp_mean"] / s_rcp - 1) < 1e-12,
                what + ": the GBS of the row nearest N and the RCP mean there", "%r %r, want %r %r" %
                (pr["gbs"], pr["rcp_mean"], near[2], s_rcp))
            scale = (s_rcp or float("nan")) / 60.0
        p, sse, npts = fit([x for x, _ in pts], [y for _, y in pts])
        T, lo, hi = interval(p, sse, npts, npts.max(), n)
        T, lo, hi = T * scale, lo and lo * scale, hi and hi * scale
        got = pr["minutes"]
        rel = lambda x, y: abs(x / y - 1)
        ok = rel(got["value"], T) < 5e-3
        if lo is not None:
            ok = ok and got["lo"] is not None and rel(got["lo"], lo) < 5e-3 and rel(got["hi"], hi) < 5e-3
        out(ok, what + ": T and its 90% interval", "gpuscale %r, SciPy %r" % (got, (T, lo, hi)))
        t = got["value"]
        ep = pr["t_ref"] * pr["n_ref"] / (n * t)
        out(abs(pr["e_prime"]["value"] - ep) < 1e-12 * ep and
            abs(pr["acc_hours"]["value"] - n * t / 60) < 1e-12 * n * t / 60,
            what + ": E' and A from T", "%r %r" % (pr["e_prime"], pr["acc_hours"]))
        out(pr["extrapolated"] == (n > npts.max() or n < npts.min()), what + ": extrapolated flag")


def main():
    args = sys.argv[1:]
    for i in range(0, len(args) - 1, 2):
        one(args[i], args[i + 1])
    print("CHECKED\t%d" % checked)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
