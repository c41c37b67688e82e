#!/usr/bin/python3
"""What the tunnel's sender did beside what the end host's TCP did, over time, for one run of a
scenario with `status_samples` and an `http` flow (docs/scenarios.md):
  timeline.py RUN_DIR [--flow http1] [--gateway gw1] [--offset S]
RUN_DIR/<gateway>.status.jsonl gives, per interval, the packets the tunnel accepted (its input:
the host's sending rate), dropped at the entrance (full / CoDel), sent as sources and as repairs,
and its model (bandwidth, pacing rate and gain, in flight, waiting). RUN_DIR/<flow>.server.json
gives the host's pacing and delivery rate, packets in flight, smoothed RTT and retransmissions;
--offset aligns its clock (response start) with the status clock (sampling start, before the flows
start; 1.7 s fits a download that starts at 1 s: check that the host's first packets in flight meet
the first accepted ones). Rates in Mbit/s of 1340-byte inner packets (MSS 1300)."""
import argparse
import bisect
import json
import os

PACKET_BITS = 1340 * 8


def load(run_dir, flow, gateway):
    """(status samples, host samples as dicts)."""
    status = [json.loads(line) for line in open(os.path.join(run_dir, f"{gateway}.status.jsonl"))]
    host = json.load(open(os.path.join(run_dir, f"{flow}.server.json")))
    samples = [dict(zip(host["sender_fields"], row)) for row in host["sender_samples"]]
    return status, samples


def rows(status, host, offset):
    """One dict per status interval."""
    host_t = [h["t_s"] + offset for h in host]
    out, prev = [], None
    for s in status:
        core, t = s["status"]["peers"][0]["core"], s["t_s"]
        if prev and t > prev[0]:
            dt, p = t - prev[0], prev[1]
            rate = lambda k: (core[k] - p[k]) / dt * PACKET_BITS * 1e-6  # noqa: E731
            h = host[min(bisect.bisect_left(host_t, t), len(host) - 1)] if host else {}
            out.append({"t": t, "accepted": rate("accepted"), "full": core["entrance_drops"] - p["entrance_drops"],
                        "codel": core["aqm_drops"] - p["aqm_drops"], "sources": rate("sources_sent"),
                        "repairs": rate("repairs_sent"), "bw": core["bbr_bw_pps"] * PACKET_BITS * 1e-6,
                        "pacing": core["bbr_pacing_rate_pps"] * PACKET_BITS * 1e-6, "gain": core["bbr_pacing_gain"],
                        "in_flight": core["in_flight"], "waiting": core["waiting_packets"],
                        "n": core["n"], "k": core["k"], "host": h})
        prev = (t, core)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run_dir")
    ap.add_argument("--flow", default="http1")
    ap.add_argument("--gateway", default="gw1")
    ap.add_argument("--offset", type=float, default=1.7)
    a = ap.parse_args()
    status, host = load(a.run_dir, a.flow, a.gateway)
    print("| t s | accepted | full / CoDel drops | sources | repairs | n, k | bw | pacing (gain) | in flight | "
          "waiting | host pacing | host delivery | host in flight | host srtt ms | host retrans |")
    print("|" + "---|" * 15)
    for r in rows(status, host, a.offset):
        h = r["host"]
        print(f"| {r['t']:.2f} | {r['accepted']:.1f} | {r['full']} / {r['codel']} | {r['sources']:.1f} | "
              f"{r['repairs']:.1f} | {r['n']:.0f}, {r['k']:.0f} | {r['bw']:.1f} | {r['pacing']:.1f} ({r['gain']:.2f}) | "
              f"{r['in_flight']:.0f} | {r['waiting']:.0f} | {h.get('pacing_mbps', 0):.1f} | "
              f"{h.get('delivery_mbps', 0):.1f} | {h.get('unacked', 0)} | {h.get('srtt_ms', 0):.0f} | "
              f"{h.get('total_retrans', 0)} |")


if __name__ == "__main__":
    main()
