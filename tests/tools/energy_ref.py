#!/usr/bin/env python3
"""Reference energy scorer for MLPerf Training results trees, written apart from the C code
(src/power.c) from the rules in ../shared/mlperf/README.md, with the Python standard library.

  energy_ref.py ROUND DIR        prints submitter,system,benchmark,energy_j,power_measurement
                                 for every benchmark folder whose power logs give an energy
  energy_ref.py ROUND DIR CSV    compares the CSV's energy_j and power_measurement columns
                                 with the reference on every row (its folder from the source
                                 column, or submitter/results/system/benchmark), and checks
                                 that every folder with an energy has a row; exit 1 on any
                                 difference

Which runs succeed comes from score_ref.py (run_minutes, with the system's initialization
limit); the olympic window is applied here. Beyond the official code, as gpuscale documents: a power file with an unreadable line, no start, a
reading before the start (old rule), no counted reading, an empty window, or a node energy
that is not a finite positive number gives the system no energy; so do a missing power
folder or node file for a successful run, and a node or switch file that one run has and
another lacks. A switch file with no interconnect_power_est counts 0 J, as officially.
"""
import csv
import json
import math
import os
import re
import stat
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score_ref  # noqa: E402

MARK = b":::MLLOG "
RELEVANT = ("power_measurement_start", "power_measurement_stop", "power_reading",
            "conversion_eff", "interconnect_power_est")
FILE_MAX = 64 << 20


class NoEnergy(Exception):
    pass


def old_rule(round_name):
    """Rounds up to v4.0 were scored with the file-order rule."""
    m = re.fullmatch(r"v(\d+)\.(\d+)", round_name)
    return bool(m) and (int(m.group(1)), int(m.group(2))) <= (4, 0)


def number(v):
    """A JSON number as a finite float, else None (booleans are no numbers)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    try:
        v = float(v)
    except OverflowError:
        return None
    return v if math.isfinite(v) else None


def read_events(path):
    """[(kind, time, value)] in file order and the set of measurement types named."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode) or st.st_size > FILE_MAX:
        raise NoEnergy("not a regular file of at most 64 MiB")
    with open(path, "rb") as f:
        data = f.read()
    evs, types = [], set()
    for line in data.split(b"\n"):
        i = line.find(MARK)
        if i < 0:
            continue
        try:
            ev = json.loads(line[i + len(MARK):].decode("utf-8"))
        except (ValueError, RecursionError) as e:
            raise NoEnergy("bad payload: %s" % e)
        if not isinstance(ev, dict):
            continue  # no key: like any event the rules do not use
        meta = ev.get("metadata")
        if isinstance(meta, dict) and isinstance(meta.get("measurement_type"), str):
            t = meta["measurement_type"].upper()
            if t in ("AC", "DC"):
                types.add(t)
        key = ev.get("key")
        if key not in RELEVANT:
            continue
        t = number(ev.get("time_ms"))
        if t is None:
            raise NoEnergy(key + " without a finite time_ms")
        v = None
        if key not in ("power_measurement_start", "power_measurement_stop"):
            v = number(ev.get("value"))
            if v is None:
                raise NoEnergy(key + " without a finite value")
        evs.append((key, t, v))
    return evs, types


def node_energy(evs, ttt, old):
    eff, agg = 1.0, 0.0
    start = stop = prev = latest = 0.0
    started = stopped = False
    counted = 0
    seq = evs if old else sorted(evs, key=lambda e: e[1])  # sorted() is stable
    for key, t, v in seq:
        if key == "power_measurement_start":
            start = prev = t
            started = True
        elif key == "power_reading":
            if old and not started:
                raise NoEnergy("reading before the start")
            if old or (started and not stopped):
                agg += v * (t - prev)
                prev = t
                latest = max(latest, t)
                counted += 1
        elif key == "power_measurement_stop":
            stop = t
            stopped = True
            if old:
                break
        elif key == "conversion_eff":
            eff = v
    if not started:
        raise NoEnergy("no start")
    if not counted:
        raise NoEnergy("no reading")
    if old:
        stop = max(stop, latest)
    elif not stopped:
        stop = latest
    if stop == start:
        raise NoEnergy("empty window")
    r = eff * agg * ttt / (stop - start) / 1000
    if not (math.isfinite(r) and r > 0):
        raise NoEnergy("node energy not finite positive")
    return r


def switch_energy(evs, ttt):
    eff, est = 1.0, 0.0
    for key, _t, v in evs:
        if key == "conversion_eff":
            eff = v
        elif key == "interconnect_power_est":
            est = v
            break
    r = eff * est * ttt / 1000
    if not (math.isfinite(r) and r >= 0):
        raise NoEnergy("switch energy not finite")
    return r


def run_ms(path):
    """run_stop - run_start in ms of a successful run (score_ref decides success)."""
    with open(path, "rb") as f:
        data = f.read()
    start = stop = None
    for line in data.split(b"\n"):
        i = line.find(MARK)
        if i < 0:
            continue
        ev = json.loads(line[i + len(MARK):].decode("utf-8"))
        if not isinstance(ev, dict):
            continue
        if ev.get("key") == "run_start" and start is None:
            start = float(ev["time_ms"])
        elif ev.get("key") == "run_stop" and stop is None:
            stop = float(ev["time_ms"])
    return stop - start


def name_measurement(submitter, system):
    for name in (submitter, system):
        words = [w.lower() for w in re.split(r"[^A-Za-z0-9]+", name)]
        if "dc" in words:
            return "DC"
        if "ac" in words:
            return "AC"
    return ""


def init_limit(bd):
    """Compliance rule 5's limit for the system of benchmark folder bd: 240 minutes in the
    open division, else 30."""
    system = os.path.basename(os.path.dirname(bd))
    sub = os.path.dirname(os.path.dirname(os.path.dirname(bd)))
    with open(os.path.join(sub, "systems", system + ".json"), encoding="utf-8") as f:
        division = json.load(f).get("division")
    return 240 if isinstance(division, str) and division.lower() == "open" else 30


def folder_energy(bd, bench, sub, system, old):
    """(joules, measurement) of a scored benchmark folder with power logs; raises NoEnergy
    when the power logs give none."""
    names = sorted(n for n in os.listdir(bd) if n.startswith("result_") and n.endswith(".txt")
                   and os.path.isfile(os.path.join(bd, n)))
    ok = []
    failed = 0
    limit = init_limit(bd)
    for n in names:
        mins = score_ref.run_minutes(os.path.join(bd, n), limit)
        if mins is None:
            failed += 1
        else:
            ok.append((mins, n))
    if not ok:
        raise NoEnergy("no successful run")
    runs, types, sets = [], set(), None
    for idx, (mins, n) in enumerate(ok):
        ttt = run_ms(os.path.join(bd, n))
        rd = os.path.join(bd, "power", n.split(".")[0])
        if not os.path.isdir(rd):
            raise NoEnergy("no power folder for " + n)
        files = os.listdir(rd)
        nodes = sorted(f for f in files if f.startswith("node_") and f.endswith(".txt") and len(f) > 9)
        sws = sorted(f for f in files if f.startswith("sw_") and f.endswith(".txt") and len(f) > 7)
        if not nodes:
            raise NoEnergy("no node file")
        if sets is None:
            sets = (nodes, sws)
        elif sets != (nodes, sws):
            raise NoEnergy("node or switch files differ between runs")
        seen = set()
        e = 0.0
        for f in nodes + sws:
            p = os.path.join(rd, f)
            st = os.stat(p)
            if (st.st_dev, st.st_ino) in seen:
                raise NoEnergy("same file twice")
            seen.add((st.st_dev, st.st_ino))
            evs, t = read_events(p)
            if f.startswith("node_"):
                e += node_energy(evs, ttt, old)
                types |= t
            else:
                e += switch_energy(evs, ttt)
        runs.append((mins, idx, e))
    runs.sort()
    m = 4 if bench == "unet3d" else 1
    if failed > m:
        raise NoEnergy("too many failed runs")
    kept = runs[m:len(runs) - (m - failed)]
    sf = 1.0
    sj = os.path.join(bd, "scaling.json")
    if os.path.exists(sj):
        with open(sj) as f:
            sf = float(json.load(f)["scaling_factor"])
    if not kept:
        raise NoEnergy("nothing kept")
    score = sum(e for _m, _i, e in kept) / len(kept) * sf
    if not (math.isfinite(score) and score > 0):
        raise NoEnergy("score not finite positive")
    meas = types.pop() if len(types) == 1 else ("" if types else name_measurement(sub, system))
    return score, meas


def cell_energy(top, sub, system, bench, old):
    """(energy_j text, measurement) of one benchmark folder; ("", "") without energy."""
    bd = os.path.join(top, sub, "results", system, bench)
    if not os.path.isdir(os.path.join(bd, "power")):
        return ("", "")
    try:
        j, meas = folder_energy(bd, bench, sub, system, old)
        return (format(j, ".0f"), meas)
    except (NoEnergy, OSError, ValueError, KeyError, TypeError):
        return ("", "")


def power_folders(top):
    """(submitter, system, benchmark folder) of every benchmark folder with power logs."""
    for sub in sorted(os.listdir(top)):
        res = os.path.join(top, sub, "results")
        if not os.path.isdir(res):
            continue
        for system in sorted(os.listdir(res)):
            sd = os.path.join(res, system)
            if not os.path.isdir(sd):
                continue
            for bench in sorted(os.listdir(sd)):
                if os.path.isdir(os.path.join(sd, bench, "power")):
                    yield sub, system, bench


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    round_name, top = sys.argv[1], sys.argv[2]
    old = old_rule(round_name)
    if len(sys.argv) == 3:
        for sub, system, bench in power_folders(top):
            j, meas = cell_energy(top, sub, system, bench, old)
            if j:
                print(f"{sub},{system},{bench},{j},{meas}")
        return 0
    bad = rows = energies = 0
    seen = set()
    with open(sys.argv[3], newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows += 1
            # the folder: the source column when the CSV has one, else the row's names
            src = r.get("source") or "/".join((r["submitter"], "results", r["system"], r["benchmark"]))
            sub, _results, system, bench = src.split("/")
            seen.add((sub, system, bench))
            want = cell_energy(top, sub, system, bench, old)
            have = (r.get("energy_j"), r.get("power_measurement"))
            energies += bool(want[0])
            if want != have:
                print("differs:", src, "reference", want, "CSV", have)
                bad += 1
    # every folder with energy has its row
    for sub, system, bench in power_folders(top):
        if (sub, system, bench) not in seen and cell_energy(top, sub, system, bench, old)[0]:
            print("energy but no row:", "/".join((sub, system, bench)))
            bad += 1
    print(f"{rows} CSV rows, {energies} with energy, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
