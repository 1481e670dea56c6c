#!/usr/bin/env python3
"""Reference scorer for MLPerf Training results trees, written apart from the C importer
from the rules in ../shared/mlperf/README.md, with the Python standard library only.

  score_ref.py DIR            prints submitter,system,benchmark,minutes for every scored cell
  score_ref.py DIR CSV        compares with an importer CSV: the same cells, minutes within
                              1e-6, and every other column of the CSV, each one the reference
                              must know (a column it does not know is a difference); exit 1 on
                              any difference

Beyond the MLPerf rules, as gpuscale documents: a run whose first run_stop comes before its
first run_start (in the log or in time) fails, and so does one whose length is not a finite
positive number of minutes in doubles (1e308 - -1e308 overflows, a length of 1e-320 ms is 0
minutes); a score that is not a finite positive number (a huge scaling_factor) is no score.
A result log that is not a readable regular file leaves its benchmark without a score; the
same file reached twice in one folder counts once. Names are written as the loader reads
them back (control bytes as '?', spaces around dropped); a system or benchmark whose name
then repeats another's is skipped; `ssd` is written `retinanet` from v2.0 on (before it is
SSD-ResNet34, kept as `ssd`) and `gnn` `rgat`.

Compliance, from the rules and the official checker's configuration (compliance_keys.csv beside
the tree, or named by GS_COMPLIANCE_KEYS): from ruleset 3.0.0 a log missing a key its ruleset,
division and benchmark require fails (a key logged twice does not); the initialization limit is
the ruleset's (v0.7 20 min, v1.x 30, from v2.0 30 closed and 240 open; a round not vX.Y takes
the newest). A systems JSON member spelt another way ("number of nodes") is read as the key.
A CPU-only system (0 accelerators per node) has 0 accelerators.
"""
import csv
import json
import math
import os
import re
import stat
import sys

MARK = b":::MLLOG "
CONVERGENCE = {"gbs", "samples_to_converge", "convergence_unit", "run_samples", "rcp_samples"}
MAX_ACCELERATORS = 10**9
BENCH_ID = {"ssd": "retinanet", "gnn": "rgat", "dlrmv4": "dlrm_v4_hstu"}


def version(round_name):
    """vX.Y as X * 100 + Y; None when the round is not named so."""
    m = re.fullmatch(r"[vV]?(\d+)\.(\d+)", round_name)
    return int(m.group(1)) * 100 + int(m.group(2)) if m else None


def bench_id(published, round_name):
    v = version(round_name)
    if published == "ssd" and v is not None and v < 200:
        return "ssd"  # SSD-ResNet34, another benchmark
    return BENCH_ID.get(published, published)


def init_limit(round_name, is_open):
    v = version(round_name)
    if v is not None and v < 7:
        return 0
    if v == 7:
        return 20
    if v is not None and v < 200:
        return 30
    return 240 if is_open else 30


def required_keys(path, round_name, is_open, published):
    """The keys a log must hold: those of ruleset X.Y.0 for every division's common config, the
    division's common one and the benchmark's; empty before 3.0.0 (missing keys only warn)."""
    v = version(round_name)
    if v is None or v < 300 or not path or not os.path.exists(path):
        return set()
    rs, div = f"{v // 100}.{v % 100}.0", "open" if is_open else "closed"
    keys = set()
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["ruleset"] == rs and ((r["division"] == "any" and r["benchmark"] == "common") or
                                      (r["division"] == div and r["benchmark"] in ("common", published))):
                keys.add(r["key"])
    return keys
BIDI = {0x061C, 0x200E, 0x200F} | set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))


def clean_bytes(b):
    """The sanitizer: every byte of a control character, DEL, C1 control, bidi control or
    invalid UTF-8 becomes '?'."""
    out, i = [], 0
    while i < len(b):
        for n in (1, 2, 3, 4):
            try:
                ch = b[i:i + n].decode("utf-8")
                break
            except UnicodeDecodeError:
                ch = None
        if ch is None or len(ch) != 1:
            out.append("?")
            i += 1
            continue
        c = ord(ch)
        unsafe = c < 0x20 or c == 0x7F or 0x80 <= c <= 0x9F or c in BIDI
        out.append("?" * n if unsafe else ch)
        i += n
    return "".join(out)


def clean_name(b):
    """A name as the CSV holds it and the loader reads it back."""
    if isinstance(b, str):
        b = b.encode("utf-8", "surrogatepass")
    return clean_bytes(b).strip(" ")


def run_minutes(path, init_limit=30, required=frozenset()):
    """Raw minutes of the run logged in the file at path, or None when the run fails or the
    file cannot be read."""
    try:
        with open(path, "rb") as f:
            return log_minutes(f.read(), init_limit, required)
    except OSError:
        return None


def log_minutes(data, init_limit, required=frozenset()):
    """Raw minutes of the run logged in data (bytes), or None when the run fails."""
    start = stop = init_start = init_stop = None
    stop_first = False
    seen = set()
    for line in data.split(b"\n"):
        i = line.find(MARK)
        if i < 0:
            continue
        try:
            ev = json.loads(line[i + len(MARK):].decode("utf-8"))
        except (ValueError, RecursionError):
            return None  # one bad payload fails the whole log
        if not isinstance(ev, dict):
            continue
        key = ev.get("key")
        if isinstance(key, str):
            seen.add(key)
        if key == "run_start" and start is None:
            start = ev
        elif key == "run_stop" and stop is None:
            stop = ev
            stop_first = start is None
        elif key == "init_start" and init_start is None:
            init_start = ev
        elif key == "init_stop" and init_stop is None:
            init_stop = ev
    if start is None or stop is None:
        return None
    if required - seen:
        return None  # the compliance checker fails a log missing a required key
    meta = stop.get("metadata")
    if not isinstance(meta, dict) or meta.get("status") != "success":
        return None
    t0, t1 = number(start.get("time_ms")), number(stop.get("time_ms"))
    if t0 is None or t1 is None:
        return None
    if stop_first or t1 <= t0:
        return None
    m = (t1 - t0) / 60 / 1000  # as the official summarizer divides
    if not (math.isfinite(m) and m > 0):
        return None
    # compliance rule 5: initialization of init_limit minutes or more fails the run
    if init_start is not None and init_stop is not None:
        i0, i1 = number(init_start.get("time_ms")), number(init_stop.get("time_ms"))
        if init_limit > 0 and i0 is not None and i1 is not None and (i1 - i0) / 60000 >= init_limit:
            return None
    return m


def number(t):
    """A time_ms as the importer reads it (a finite double), or None."""
    if isinstance(t, bool) or not isinstance(t, (int, float)):
        return None
    try:
        t = float(t)
    except OverflowError:
        return None  # an integer beyond any double
    return t if math.isfinite(t) else None


def score(folder, bench, init_limit, required=frozenset()):
    """The columns a benchmark folder gives, or None when it has no score."""
    names = sorted(n for n in os.listdir(folder) if n.startswith(b"result_") and n.endswith(b".txt"))
    runs, seen = [], set()
    for n in names:
        p = os.path.join(folder, n)
        try:
            st = os.stat(p)
        except OSError:
            return None  # a dangling symlink: unreadable, no score
        if not stat.S_ISREG(st.st_mode):
            return None  # a FIFO, a folder: no score
        if (st.st_dev, st.st_ino) in seen:
            continue  # the same file twice counts once
        seen.add((st.st_dev, st.st_ino))
        try:
            with open(p, "rb") as f:
                data = f.read()
        except OSError:
            return None
        runs.append((n, log_minutes(data, init_limit, required)))
    if not runs:
        return None
    # a run time below the least normal double has no text that reads back: no score
    if any(t is not None and t < sys.float_info.min for _, t in runs):
        return None
    ok = sorted(((t, n) for n, t in runs if t is not None))
    failed = [n for n, t in runs if t is None]
    d = len(failed)
    m = 4 if bench == "unet3d" else 1
    if d > m:
        return None
    kept = [t for t, _ in ok][m:len(ok) - (m - d)]
    if not kept:
        return None
    s = sum(kept) / len(kept)
    sf = 1.0
    sj = os.path.join(folder, b"scaling.json")
    if os.path.lexists(sj):
        try:
            if not stat.S_ISREG(os.stat(sj).st_mode):
                return None
            with open(sj) as f:
                sf = float(json.load(f)["scaling_factor"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
    if not (math.isfinite(sf) and sf >= sys.float_info.min):
        return None  # nor a scaling factor below it
    if not (math.isfinite(s * sf) and s * sf >= sys.float_info.min):
        return None
    return {
        "minutes": s * sf,
        "runs_scored": str(len(ok)), "runs_failed": str(d), "scaling_factor": sf,
        "run_minutes": ";".join(minutes_text(t, 4) for t, _ in ok),
        "run_files": ";".join(clean_bytes(n) for _, n in ok),
        "failed_files": ";".join(clean_bytes(n) for n in failed),
        # energy-to-train: tree() fills these from energy_ref.py where a folder has power logs
        "energy_j": "", "power_measurement": "",
    }


def minutes_text(v, decimals):
    """Minutes as the importer writes them: fixed with `decimals` digits from 10**-decimals up
    to 1e15, else the shortest %.Pg (P >= 15) that reads back exactly."""
    if 10.0 ** -decimals <= v < 1e15:
        return f"{v:.{decimals}f}"
    for p in range(15, 18):
        text = "%.*g" % (p, v)
        if float(text) == v:
            return text
    return "%.17g" % v


def system_info(path):
    """The systems JSON fields the CSV repeats, as the importer should write them."""
    with open(path, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise ValueError("not a regular file")
        j = json.loads(f.read().decode("utf-8"))
    def text(k):
        try:
            v = member(k)
        except KeyError:
            v = None
        return clean_name(v.encode("utf-8", "surrogatepass")) if isinstance(v, str) else ""
    def member(k):
        if k in j:
            return j[k]
        for name, v in j.items():
            if re.sub(r"[ -]", "_", name.lower()) == k:
                return v
        raise KeyError(k)
    def count(k):
        v = member(k)
        if isinstance(v, bool):
            raise ValueError(k)
        v = int(v.strip(" \t")) if isinstance(v, str) else v
        if isinstance(v, float) and (not math.isfinite(v) or v != math.floor(v)):
            raise ValueError(k)
        if not 0 <= v <= 10**9:
            raise ValueError(k)
        return int(v)
    nodes, per = count("number_of_nodes"), count("accelerators_per_node")
    if nodes < 1 or nodes * per > MAX_ACCELERATORS:
        raise ValueError("counts")
    return {"system_name": text("system_name"), "division": text("division"),
            "availability": text("status"), "accelerator": text("accelerator_model_name"),
            "framework": text("framework"), "nodes": str(nodes), "accelerators_per_node": str(per),
            "accelerators": str(nodes * per)}


def tree(top):
    import energy_ref  # the energy scorer, itself built on this file's run rules
    # the node rule of the round the folder is named after (training_results_v4.0)
    round_name = os.path.basename(os.path.normpath(top)).replace("training_results_", "", 1)
    old = energy_ref.old_rule(round_name)
    keys_csv = os.environ.get("GS_COMPLIANCE_KEYS") or os.path.join(os.path.dirname(os.path.normpath(top)),
                                                                   "compliance_keys.csv")
    cells, systems = {}, set()
    top = os.fsencode(top)
    for sub in sorted(os.listdir(top)):
        if sub.startswith(b".") or not os.path.isdir(os.path.join(top, sub)):
            continue
        sysdir = os.path.join(top, sub, b"systems")
        jsons = sorted(n for n in os.listdir(sysdir) if n.endswith(b".json") and not n.startswith(b".")) \
            if os.path.isdir(sysdir) else []
        usable = {}
        for jn in jsons:
            system = jn[:-5]
            key = (clean_name(sub), clean_name(system))
            if not key[0] or not key[1] or key in systems:
                continue  # empty once cleaned, or a twin of an earlier system
            systems.add(key)
            try:
                usable[system] = system_info(os.path.join(sysdir, jn))
            except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
                pass  # a systems JSON that cannot be used: the system has no score
        res = os.path.join(top, sub, b"results")
        if not os.path.isdir(res):
            continue
        for system in sorted(os.listdir(res)):
            sd = os.path.join(res, system)
            if system.startswith(b".") or system not in usable or not os.path.isdir(sd):
                continue
            info = usable[system]
            is_open = info["division"].lower() == "open"
            limit = init_limit(round_name, is_open)
            done = set()
            for bench in sorted(os.listdir(sd)):
                bd = os.path.join(sd, bench)
                if bench.startswith(b".") or not os.path.isdir(bd):
                    continue
                published = clean_name(bench)
                bid = bench_id(published, round_name)
                if not published or bid in done:
                    continue  # empty once cleaned, or a second folder of the same benchmark
                done.add(bid)
                r = score(bd, bid, limit, required_keys(keys_csv, round_name, is_open, published))
                if r is not None:
                    r.update(info)
                    j, meas = energy_ref.cell_energy(*map(os.fsdecode, (top, sub, system, bench)), old)
                    r.update({"energy_j": j, "power_measurement": meas})
                    r.update({"submitter": clean_name(sub), "system": clean_name(system),
                              "benchmark": bid, "benchmark_published": published,
                              "source": clean_bytes(os.path.relpath(bd, top))})
                    cells[(clean_name(sub), clean_name(system), bid)] = r
    return cells


def unguard(v):
    """A cell as it was before the importer's formula guard: one ' less when one or more '
    come before = + - @ TAB CR (a plain number such as -1.5 is never guarded)."""
    if v is None or not v.startswith("'"):
        return v
    t = v[1:]
    q = len(t) - len(t.lstrip("'"))
    if q < len(t) and t[q] in "=+-@\t\r" and (q > 0 or not re.fullmatch(
            r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", t)):
        return t
    return v


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    ref = tree(sys.argv[1])
    if len(sys.argv) == 2:
        for (sub, system, bench), r in sorted(ref.items()):
            print(f"{sub},{system},{bench},{r['minutes']:.6f}")
        return 0
    got = {}
    with open(sys.argv[2], newline="", encoding="utf-8") as f:
        rd = csv.DictReader(f)
        columns = rd.fieldnames
        for r in rd:
            r = {k: unguard(v) for k, v in r.items()}
            got[(r["submitter"], r["system"], r["benchmark"])] = r
    bad = 0
    for k in sorted(set(ref) | set(got)):
        if k not in got:
            print("missing from CSV:", "/".join(k), ref[k]["minutes"]); bad += 1
            continue
        if k not in ref:
            print("not scored by reference:", "/".join(k), got[k]["minutes"]); bad += 1
            continue
        want, r = ref[k], got[k]
        why = []
        for col in columns:
            if col == "round" or col in CONVERGENCE:
                continue  # the caller's choice; convergence_ref.py checks convergence
            if col not in want:
                why.append(f"column {col} is unknown to the reference")
            elif col == "minutes":
                if abs(want[col] - float(r[col])) > 1e-6:
                    why.append(f"minutes {want[col]:.6f} vs {r[col]}")
            elif col == "scaling_factor":
                if want[col] != float(r[col]):
                    why.append(f"scaling_factor {want[col]!r} vs {r[col]}")
            elif want[col] != r[col]:
                why.append(f"{col} {want[col]!r} vs {r[col]!r}")
        if why:
            print("differs:", "/".join(k), "; ".join(why)); bad += 1
    print(f"{len(ref)} reference cells, {len(got)} CSV cells, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
