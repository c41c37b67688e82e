#!/usr/bin/env python3
"""Tables for a side-by-side run of two tunnel binaries (old, new) and e2e on the same links, one
session (a run.sh in a sibling directory): goodput of e2e, the old and the new tunnel per case and
host CC, the hosts' mean RTT, the mean frame size on the link gw1 -> gw2 (linkem's bytes_in /
frames_in over the whole run: data, pings, handshakes), and gw1's repairs as a share of its
coded transmissions and ProbeRTTs.
Usage: ab_compare.py DIR (holds BIN-CASE-REP.json: the results.json of each run.sh output
directory, BIN e2e, old or new; the raw/ of a sibling directory)."""
import glob
import json
import os
import statistics
import sys


def runs(out):
    """Yields (binary, case, rep, variant, run dict) for every run under out."""
    for path in sorted(glob.glob(os.path.join(out, "*.json"))):
        binary, case, rep = os.path.basename(path)[:-5].split("-")
        for r in json.load(open(path))["runs"]:
            yield binary, case, int(rep), r["variant"], r


def figures(r):
    """iperf3 Mbit/s, download Mbit/s, iperf3 sender's mean RTT ms, mean frame bytes, the median
    of iperf3's one-second intervals (the steady state: start-up and the BBR hosts' own ProbeRTT
    dips, which fall at different seconds in different runs, do not move it), gw1's repairs per
    coded transmission in percent and its controller's ProbeRTTs (NaN for e2e)."""
    flows = {f["name"]: f for f in r["flows"]}
    a2b = r["linkem"]["gw1-gw2"]["a2b"]
    seconds = [x[2] / 1e6 for x in flows["tcp1"]["series"] if x[1] - x[0] > 0.9]
    repairs = probe_rtts = float("nan")
    peers = r.get("gateways", {}).get("gw1", {}).get("peers", [])
    if peers and peers[0].get("core", {}).get("combinations_sent"):
        core = peers[0]["core"]
        repairs = 100 * core["repairs_sent"] / core["combinations_sent"]
        probe_rtts = core.get("bbr_probe_rtt_count", float("nan"))
    return (flows["tcp1"]["goodput_bps"] / 1e6, flows["http1"].get("goodput_bps", 0) / 1e6,
            flows["tcp1"]["mean_rtt_ms"], a2b["bytes_in"] / a2b["frames_in"], statistics.median(seconds), repairs,
            probe_rtts)


def main():
    table = {}
    for binary, case, rep, variant, r in runs(sys.argv[1]):
        cc = variant.split("-")[1]
        table.setdefault((case, cc), {}).setdefault(binary, []).append(figures(r))
    mean = lambda xs: statistics.mean(xs) if xs else float("nan")  # noqa: E731
    print("| case | hosts | e2e iperf3 | old | new | new/old | old/e2e | new/e2e | e2e download | old | new "
          "| iperf3 RTT ms: e2e / old / new | mean frame bytes: e2e / old / new "
          "| median 1 s iperf3: e2e / old / new | new / e2e, median | repairs % old / new | ProbeRTTs per run old / new | runs |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (case, cc), b in sorted(table.items()):
        col = {k: [mean([x[i] for x in b.get(k, [])]) for i in range(7)] for k in ("e2e", "old", "new")}
        e, o, n = col["e2e"], col["old"], col["new"]
        print(f"| {case} | {cc} | {e[0]:.1f} | {o[0]:.1f} | {n[0]:.1f} | {n[0] / o[0]:.3f} | {o[0] / e[0]:.3f} "
              f"| {n[0] / e[0]:.3f} | {e[1]:.1f} | {o[1]:.1f} | {n[1]:.1f} "
              f"| {e[2]:.0f} / {o[2]:.0f} / {n[2]:.0f} | {e[3]:.0f} / {o[3]:.0f} / {n[3]:.0f} "
              f"| {e[4]:.1f} / {o[4]:.1f} / {n[4]:.1f} | {n[4] / e[4]:.3f} | {o[5]:.2f} / {n[5]:.2f} "
              f"| {o[6]:.1f} / {n[6]:.1f} "
              f"| {len(b.get('new', []))} |")


if __name__ == "__main__":
    main()
