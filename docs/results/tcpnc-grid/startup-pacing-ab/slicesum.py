#!/usr/bin/python3
# Slice side-by-side: per case, loss model and variant, base vs new iperf3 / HTTP goodput (Mbit/s).
import sys, os, collections
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sum import runs, goodput  # noqa: E402

res = collections.defaultdict(dict)
for b, r, f in runs(sys.argv[1]):
    res[(r['case'], r['sweep_value'], r['variant'])][b] = (goodput(f, 'tcp1'), goodput(f, 'http1'))
short = lambda s: {'none': 'none', 'bernoulli:0.01': '1 %', 'bernoulli:0.05': '5 %', 'bernoulli:0.1': '10 %'}.get(s, 'GE 5 %' if '0.0175' in s else 'GE 15 %')
print('| case | loss | variant | base iperf3 | new iperf3 | ratio | base HTTP | new HTTP | ratio |')
print('|---|---|---|---|---|---|---|---|---|')
for (c, s, v), bs in res.items():
    if 'base' not in bs or 'new' not in bs: continue
    b, n = bs['base'], bs['new']
    rt = lambda x, y: f"{y / x:.2f}" if x > 0 else '-'
    print(f"| {c} | {short(s)} | {v} | {b[0]:.2f} | {n[0]:.2f} | {rt(b[0], n[0])} | {b[1]:.2f} | {n[1]:.2f} | {rt(b[1], n[1])} |")
