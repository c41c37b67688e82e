#!/usr/bin/python3
"""netns_fudp_tcp_vs_udp: one TCP flow and one UDP flow at twice the link rate through a TCP/NC
tunnel (netns-scenarios/scenarios/fudp-two-flows.yaml), FUDP off and on in one run:
  check_fudp.py OUT_DIR RUNNER SCENARIO --ncgw PATH --linkem PATH
Passes when, with FUDP, the TCP flow's mean throughput while the UDP flow sends (from 3 s after
it starts) is at least 0.4 of the link rate; prints both variants' figures. The runner builds and
tears down the namespaces (also on failure)."""
import json
import os
import subprocess
import sys

LEAST_TCP_SHARE = 0.4


def main():
    out, runner, scenario, tools = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    cmd = ["/usr/bin/python3", runner, scenario, "--out", out, "--no-plots"] + tools
    rc = subprocess.run(cmd).returncode
    runs = {r["variant"]: r for r in json.load(open(os.path.join(out, "results.json")))["runs"]}
    problems = [f"runner exit code {rc}"] if rc else []
    share = {}
    for v in ("tunnel", "tunnel-fudp"):
        w = (runs.get(v) or {}).get("window")
        if not w:
            problems.append(f"{v}: no time series ({(runs.get(v) or {}).get('error')})")
            continue
        share[v] = w["flows"].get("tcp1", 0.0) / 10.0
        print(f"[fudp] {v}: seconds {w['window_s'][0]}-{w['window_s'][1]}: tcp1 {w['flows'].get('tcp1', 0):.3f} "
              f"Mbit/s (share of the 10 Mbit/s link {share[v]:.3f}), udp1 {w['flows'].get('udp1', 0):.3f} Mbit/s, "
              f"Jain {w['jain_mean']:.3f}, utilisation {w['utilisation']:.3f}, mean RTT {w['mean_rtt_ms']} ms")
    if share.get("tunnel-fudp", 0.0) < LEAST_TCP_SHARE:
        problems.append(f"tunnel-fudp: TCP share {share.get('tunnel-fudp', 0.0):.3f} < {LEAST_TCP_SHARE}")
    for p in problems:
        print(f"[fudp] FAIL: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
