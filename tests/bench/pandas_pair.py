#!/usr/bin/env python3
"""pandas_pair.py: gpuscale against pandas on one CSV, interleaved (A B A B ...) in one process.

usage: pandas_pair.py read|write RUNS CSV GPUSCALE [ARG...]

read:  A = the gpuscale command (a process: load + report), B = pandas.read_csv(CSV) alone.
write: A = the gpuscale command, B = DataFrame.to_csv of the frame that command printed
       (read once beforehand, untimed), written to /dev/null.
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

    def b():
        t = time.perf_counter()
        if mode == "read":
            pd.read_csv(csv)
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
