#!/usr/bin/python3
# Slice side-by-side: per case, loss model and variant, base vs new iperf3 / HTTP goodput (Mbit/s).
import json, sys, glob, os, collections
root = sys.argv[1]
res = collections.defaultdict(dict)
for d in sorted(glob.glob(os.path.join(root, '*-*'))):
    b = os.path.basename(d).split('-')[0]
    try: j = json.load(open(os.path.join(d, 'results.json')))
    except Exception: continue
    for r in j['runs']:
        f = {x['name']: x for x in r['flows']}
        g = lambda n: (f.get(n, {}).get('goodput_bps') or 0) / 1e6
        res[(r['case'], r['sweep_value'], r['variant'])][b] = (g('tcp1'), g('http1'))
short = lambda s: {'none': 'none', 'bernoulli:0.01': '1 %', 'bernoulli:0.05': '5 %', 'bernoulli:0.1': '10 %'}.get(s, 'GE 5 %' if '0.0175' in s else 'GE 15 %')
print('| case | loss | variant | base iperf3 | new iperf3 | ratio | base HTTP | new HTTP | ratio |')
print('|---|---|---|---|---|---|---|---|---|')
for (c, s, v), bs in res.items():
    if 'base' not in bs or 'new' not in bs: continue
    b, n = bs['base'], bs['new']
    rt = lambda x, y: f"{y / x:.2f}" if x > 0 else '-'
    print(f"| {c} | {short(s)} | {v} | {b[0]:.2f} | {n[0]:.2f} | {rt(b[0], n[0])} | {b[1]:.2f} | {n[1]:.2f} | {rt(b[1], n[1])} |")
