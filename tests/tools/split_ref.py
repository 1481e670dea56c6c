#!/usr/bin/env python3
"""split_ref.py DATA_DIR THETA VIEW_CSV SUMMARY_JSON [VIEW_CSV SUMMARY_JSON ...]: checks the split
of E' in each --print csv view and its --print summary --format json against its own arithmetic
on the results files
(stdlib csv only). Which row is each group's reference is the view's (is_reference, family);
everything else is computed here from data/*.csv: S' = samples_to_converge x scaling_factor,
e_conv = S'_ref / S', e_thru = (X / N) / (X_ref / N_ref) with X = S' / minutes, e_conv_rcp =
rcp_samples_ref / rcp_samples, and each group's throughput and convergence brackets (the
break-even rule: the lower end the N of the fastest row whose factor reaches theta, the upper
end the first larger N at which no row's does); and, in every row with a split, e_prime =
e_conv x e_thru to the doubles the CSV shows (within 2 ulp). Prints one line per difference and
the count of rows with a split; exit 1 on any difference."""
import csv, glob, json, os, sys

data, theta, views = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
src = {}
for f in glob.glob(os.path.join(data, 'mlperf_training_v*.csv')):
    for r in csv.DictReader(open(f, newline='')):
        src[(r['round'], r['submitter'], r['system'], r['source'])] = r

def num(s):
    try:
        v = float(s)
        return v if v > 0 else None
    except (TypeError, ValueError):
        return None

bad = nsplit = 0
def differ(what, got, want):
    global bad
    bad += 1
    print('%s: got %r, want %r' % (what, got, want))

def charged(r):
    s, sf = num(r['samples_to_converge']), num(r['scaling_factor']) or 1.0
    return s * sf if s else None

def same(a, b):
    if a is None or b == '':
        return a is None and b == ''
    return abs(a - float(b)) <= 1e-12 * abs(a)

def bracket(group, fac):
    """(kind, lo, hi) by the break-even rule on factor fac."""
    if len(group) == 1 and group[0]['is_reference'] == '1':
        return ('one_row', None, None)
    by_t = sorted(group, key=lambda r: (float(r['minutes']), r['system'], r['submitter']))
    lo = next((int(r['accelerators']) for r in by_t if r[fac] is not None and r[fac] >= theta), None)
    if lo is None:
        return ('none', None, None)
    for n in sorted({int(r['accelerators']) for r in group}):
        if n > lo and not any(r[fac] is not None and r[fac] >= theta
                              for r in group if int(r['accelerators']) == n):
            return ('bracket', lo, n)
    return ('censored', lo, None)

def check(view, summary):
    global nsplit
    rows = list(csv.DictReader(open(view, newline='')))
    for r in rows:
        if r['e_conv'] == '':
            if r['e_thru'] != '':
                differ('%s %s' % (view, r['system']), 'e_thru without e_conv', '')
            continue
        nsplit += 1
        p, ep = float(r['e_conv']) * float(r['e_thru']), float(r['e_prime'])
        if abs(p - ep) > 4.5e-16 * abs(ep):
            differ('%s %s e_conv x e_thru' % (view, r['system']), p, ep)

    mode = json.load(open(summary))['summary'][0]['mode']
    key = (lambda r: r['family']) if mode == 'family' else (lambda r: '')
    refs = {key(r): r for r in rows if r['is_reference'] == '1'}
    for r in rows:
        d = src[(r['round'], r['submitter'], r['system'], r['source'])]
        f = refs[key(r)]
        fd = src[(f['round'], f['submitter'], f['system'], f['source'])]
        s, sr = charged(d), charged(fd)
        n, nr, t, tr = float(d['accelerators']), float(fd['accelerators']), float(d['minutes']), float(fd['minutes'])
        conv = thru = None
        if s and sr:
            conv = sr / s
            thru = (s / t / n) / (sr / tr / nr)
        rcp = num(d['rcp_samples']), num(fd['rcp_samples'])
        conv_rcp = rcp[1] / rcp[0] if rcp[0] and rcp[1] else None
        name = '%s %s %s' % (r['round'], r['benchmark'], r['system'])
        for col, want in (('e_conv', conv), ('e_thru', thru), ('e_conv_rcp', conv_rcp)):
            if not same(want, r[col]):
                differ('%s %s' % (name, col), r[col], want)
        r['_conv'], r['_thru'] = conv, thru

    groups = {}
    for r in rows:
        groups.setdefault(key(r), []).append(r)
    for g in json.load(open(summary))['summary'][0]['groups']:
        k = g['family'] if mode == 'family' else ''
        rs = groups.get(k, [])
        split = any(r['_conv'] is not None and r['is_reference'] != '1' for r in rs)
        if g['split'] != split:
            differ('%s: %s split' % (view, k or 'all'), g['split'], split)
            continue
        if not split:
            continue
        for fac, name in (('_thru', 'bracket_throughput'), ('_conv', 'bracket_convergence')):
            got = g[name]
            got = (got['kind'], got['lo'], got['hi'])
            want = bracket(rs, fac)
            if got != want:
                differ('%s: %s %s' % (view, k or 'all', name), got, want)

for v in range(0, len(views) - 1, 2):
    check(views[v], views[v + 1])
print('%d rows with a split' % nsplit)
sys.exit(1 if bad else 0)
