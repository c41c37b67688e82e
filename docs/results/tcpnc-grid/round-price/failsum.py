#!/usr/bin/python3
# Per run under ROOT (an ab.sh output): variant, loss, iperf3 and download Mbit/s, the iperf3 sender's
# mean RTT, gw1's CW failures (retransmission rounds), repairs per source and retransmissions, and
# linkem's queue and loss drops on the data direction. Usage: failsum.py ROOT
import json, sys, glob, os
for res in sorted(glob.glob(os.path.join(sys.argv[1], '**/results.json'), recursive=True)):
    d = os.path.dirname(res)
    j = json.load(open(res))
    for i, r in enumerate(j['runs']):
        rd = os.path.join(d, 'run-%04d' % (i + 1))
        f = {x['name']: x for x in r['flows']}
        try:
            st = [json.loads(l) for l in open(rd + '/gw1.status.jsonl')]
            c = st[-1]['status']['peers'][0]['core']
            cf = f"fail {c['cw_failures']:.0f} rep/src {c['repairs_sent']/max(1,c['sources_sent']):.3f} rtx {c['retransmissions']:.0f}"
        except Exception as e:
            cf = 'no status'
        txt = open(rd + '/linkem-gw1-gw2.log').read(); a = json.loads(txt[txt.rfind('\n{'):])['a2b']
        g = lambda n: (f.get(n, {}).get('goodput_bps') or 0) / 1e6
        rtt = f.get('tcp1', {}).get('mean_rtt_ms') or 0
        print(f"{os.path.relpath(d, sys.argv[1]):10s} {r['variant']:12s} tcp {g('tcp1'):6.1f} http {g('http1'):5.1f} rtt {rtt:4.0f} | {cf} | qdrop {a['dropped_queue']} loss {a['dropped_loss']}")
