#!/usr/bin/env python3
"""pandas_pair.py: gpuscale against pandas on one CSV, interleaved (A B A B ...) in one process.

usage: pandas_pair.py read|write RUNS CSV GPUSCALE [ARG...]

read:  A = the gpuscale command (a process: load + report), B = pandas.read_csv(CSV) alone.
write: A = the gpuscale command, B = DataFrame.to_csv of the frame that command printed
       (read once beforehand, untimed), written to /dev/null.
peer:  A = the gpuscale command, B = the peer script a pandas user writes for the same table:
       read_csv(CSV), the rows of one benchmark (the command's -w), speedup and E' against the
       reference (fewest accelerators, the slowest of them), k-means as gpuscale runs it (k = 3
       on (log2 N, E'), 16 seeded starts of SciPy's kmeans2, the lowest inertia kept), to_csv
       of the frame with those columns to /dev/null.
Prints "n median_a median_b median_ratio max_ratio" (the ratio: median of per-pair A/B)."""
import io
import statistics
import subprocess
import sys
import time

import pandas as pd


def main():
    mode, runs, csv, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    frame = None
    if mode == "write":
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
        frame = pd.read_csv(io.BytesIO(out.stdout))

    def a():
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return time.perf_counter() - t

    bench = cmd[cmd.index("-w") + 1] if "-w" in cmd else None

    def peer():
        import numpy as np
        from scipy.cluster.vq import kmeans2

        d = pd.read_csv(csv)
        if bench:
            d = d[d["benchmark"] == bench].copy()
        n, t = d["accelerators"].astype(float), d["minutes"].astype(float)
        ref = d[n == n.min()]["minutes"].max()
        d["speedup"] = ref / t
        d["e_prime"] = d["speedup"] / (n / n.min())
        x = np.column_stack([np.log2(n), d["e_prime"]])
        best = None
        for seed in range(16):
            c, lab = kmeans2(x, 3, seed=seed, minit="++")
            inertia = float(((x - c[lab]) ** 2).sum())
            if best is None or inertia < best[0]:
                best = (inertia, lab)
        d["cluster"] = best[1]
        with open("/dev/null", "w") as f:
            d.to_csv(f, index=False)

    def b():
        t = time.perf_counter()
        if mode == "read":
            pd.read_csv(csv)
        elif mode == "peer":
            peer()
        else:
            with open("/dev/null", "w") as f:
                frame.to_csv(f, index=False)
        return time.perf_counter() - t

    a(), b()  # warm up both
    ta, tb = [], []
    for _ in range(runs):
        ta.append(a())
        tb.append(b())
    r = sorted(x / y for x, y in zip(ta, tb))
    print(runs, statistics.median(ta), statistics.median(tb), statistics.median(r), r[-1])


main()
