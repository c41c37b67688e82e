#!/usr/bin/python3
# Per 0.2 s sample of one run: the iperf3 sender's window, unacknowledged packets and RTT (ss), the
# goodput it had acknowledged since the last sample, and gw1's BBR mode, CW failures so far, (n, k)
# and packets in flight. Shows what each CW failure (a retransmission round) does to the host.
# Usage: holdview.py RUN_DIR [T0 T1]   (RUN_DIR with tcp1.ss.jsonl and gw1.status.jsonl)
import json, sys

run = sys.argv[1]
t0, t1 = (float(sys.argv[2]), float(sys.argv[3])) if len(sys.argv) > 3 else (0.0, 1e9)
ss = [json.loads(l) for l in open(run + '/tcp1.ss.jsonl')]
st = [json.loads(l) for l in open(run + '/gw1.status.jsonl')]


def gw1_at(t):
    """gw1's core figures in the status sample nearest to t."""
    return min(st, key=lambda j: abs(j['t_s'] - t))['status']['peers'][0]['core']


prev = None
print('t_s host_cwnd host_unacked host_rtt_ms acked_mbps | gw1_mode cw_failures n k in_flight')
for x in ss:
    t, acked = x['t_s'], x.get('bytes_acked') or 0
    rate = (acked - prev[1]) * 8 / (t - prev[0]) / 1e6 if prev and t > prev[0] else 0.0
    prev = (t, acked)
    if not t0 <= t <= t1:
        continue
    c = gw1_at(t)
    print(f"{t:.1f} {x.get('cwnd')} {x.get('unacked')} {x.get('rtt_ms')} {rate:.0f} | {c['bbr_mode']:.0f} "
          f"{c['cw_failures']:.0f} {c['n']:.0f} {c['k']:.0f} {c['in_flight']:.0f}")
