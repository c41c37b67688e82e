#!/usr/bin/python3
"""hostview.py SS_JSONL [GW1_STATUS_JSONL]: about once a second, the iperf3 sender's cwnd, unacked
packets, smoothed RTT, unsent bytes, acknowledged rate and retransmissions (from a run's
`<flow>.ss.jsonl`, scenario key tcp_samples), beside gw1's CW failures, input and path rates."""
import json
import sys


def main(ss_path, gw_path=None):
    ss = [json.loads(l) for l in open(ss_path)]
    sock = max(ss, key=lambda s: s.get("bytes_acked", 0)).get("sock")
    ss = [s for s in ss if s.get("sock") == sock]
    gw = []
    if gw_path:
        for l in open(gw_path):
            j = json.loads(l)
            gw.append((j["t_s"], j["status"]["peers"][0]["core"]))
    prev = None
    for s in ss:
        if prev and s["t_s"] - prev["t_s"] < 0.95:
            continue
        dt = s["t_s"] - prev["t_s"] if prev else 1.0
        acked = (s.get("bytes_acked", 0) - (prev.get("bytes_acked", 0) if prev else 0)) * 8 / dt / 1e6
        line = (f"{s['t_s']:5.1f} s  cwnd {s.get('cwnd', 0):5d} unacked {s.get('unacked', 0):5d} "
                f"srtt {s.get('rtt_ms', 0):6.1f} notsent {s.get('notsent', 0) / 1e3:6.0f} kB "
                f"acked {acked:6.1f} Mbit/s retrans {s.get('retrans_total', 0)}")
        if gw:
            t, c = min(gw, key=lambda x: abs(x[0] - s["t_s"]))
            line += (f" | gw1 cw_failures {c.get('cw_failures', 0):4.0f} accepted {c.get('accepted', 0):7.0f} "
                     f"input {c.get('input_rate_pps', 0):6.0f}/s path {c.get('bbr_bw_pps', 0):6.0f}/s "
                     f"spare {c.get('spare_plan', 0):.0f}")
        print(line)
        prev = s


if __name__ == "__main__":
    main(*sys.argv[1:3])
