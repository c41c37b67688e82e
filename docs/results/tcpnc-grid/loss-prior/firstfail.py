#!/usr/bin/python3
# Each run's first CW failure at gw1 (the first status sample where cw_failures > 0): time in s,
# sources accepted by then, failures by then, the plan's loss estimate and R.
# Usage: firstfail.py DIR (searched for gw1.status.jsonl)
import glob, json, sys

for f in sorted(glob.glob(sys.argv[1] + '/**/gw1.status.jsonl', recursive=True)):
    first = None
    for line in open(f):
        g = json.loads(line)
        c = g['status']['peers'][0]['core']
        if c.get('cw_failures', 0) > 0:
            first = (g['t_s'], c['accepted'], c['cw_failures'], round(c['loss_rate_est'], 3), round(c['R'], 2))
            break
    print(f[len(sys.argv[1]):], first)
