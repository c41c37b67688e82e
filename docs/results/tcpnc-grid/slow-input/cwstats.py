#!/usr/bin/python3
# CW figures at gw1 from T0 s to the end of each run (the download phase with T0 = 13.5 in the
# startup-excess-ab runs): sources, CWs closed early (idle_cws), by age (aged_cws), CW failures.
# Usage: cwstats.py T0 RUNDIR... (run directories with gw1.status.jsonl)
import json,sys
t0=float(sys.argv[1])
for r in sys.argv[2:]:
    rows=[json.loads(l) for l in open(r+'/gw1.status.jsonl')]
    a=min(rows,key=lambda j:abs(j['t_s']-t0))['status']['peers'][0]['core']
    e=rows[-1]['status']['peers'][0]['core']
    d=lambda k:e.get(k,0)-a.get(k,0)
    ds=d('sources_sent')
    print("%-28s src %6d idle-closed %5d aged %4d fail %4d | src/closed %5.1f fail/1000src %5.1f rep/src %.2f"%(r,ds,d('idle_cws'),d('aged_cws'),d('cw_failures'),ds/max(1,d('idle_cws')),1000*d('cw_failures')/ds,d('repairs_sent')/ds))
