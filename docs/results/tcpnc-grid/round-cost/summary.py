#!/usr/bin/python3
# One line per run: variant, iperf3 and download goodput (Mbit/s), the iperf3 sender's mean RTT, and
# gw1's final CW failures, R, (n, k) and repairs per source (from its log's final counters).
# Usage: summary.py OUT_DIR...   (run-scenario output directories)
import json, sys

for d in sys.argv[1:]:
    j = json.load(open(d + '/results.json'))
    for i, r in enumerate(j['runs']):
        f = {x['name']: x for x in r['flows']}
        line = [x for x in open(f'{d}/run-{i + 1:04d}/ncgw-gw1.log') if 'final counters' in x][0]
        c = json.loads(line[line.index('{'):])['peers'][0]['core']
        g = lambda n: (f.get(n, {}).get('goodput_bps') or 0) / 1e6
        print(f"{d} {r['variant']} iperf3 {g('tcp1'):.1f} http {g('http1'):.1f} rtt {f['tcp1'].get('mean_rtt_ms')} | "
              f"cw_failures {c['cw_failures']:.0f} R {c['R']:.3f} n {c['n']:.0f} k {c['k']:.0f} "
              f"repairs/source {c['repairs_sent'] / c['sources_sent']:.3f}")
