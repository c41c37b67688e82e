#!/usr/bin/python3
"""Table and plot of a udt-parallel run (netns-scenarios/scenarios/udt-parallel.yaml), shaped
like paper 001's Fig. 4/5: total goodput of the eight TCP flows against the RTT, per variant
(and, beside it, the RTT the end hosts measured through the tunnel),
with the ratios the goals name (ACT / single UDT, utilisation of the link) and the channel
counts the gateways ended with.

Usage: table.py RESULTS_JSON OUT_PNG"""
import json
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

VARIANTS = []  # in the order the scenario lists them (filled from the results)


def mbit(text):
    """'200mbit' -> 200.0"""
    m = re.fullmatch(r"([0-9.]+)mbit", str(text))
    return float(m.group(1)) if m else float("nan")


def ms(text):
    """'25ms' -> 25.0"""
    m = re.fullmatch(r"([0-9.]+)ms", str(text))
    return float(m.group(1)) if m else 0.0


def collect(doc):
    """{case: {variant: (total Mbit/s, mean RTT ms, channels at gw1 or None)}} and case params."""
    points, params = {}, {}
    for r in doc["runs"]:
        if r["variant"] not in VARIANTS:
            VARIANTS.append(r["variant"])
        tcp = [f for f in r["flows"] if f["type"] == "tcp" and f.get("goodput_bps")]
        total = sum(f["goodput_bps"] for f in tcp) / 1e6
        rtts = [f["mean_rtt_ms"] for f in tcp if f.get("mean_rtt_ms")]
        channels = None
        gw1 = (r.get("gateways") or {}).get("gw1")
        if gw1 and gw1.get("peers"):
            channels = gw1["peers"][0]["core"].get("channels_connected")
        points.setdefault(r["case"], {})[r["variant"]] = (total, sum(rtts) / len(rtts) if rtts else 0, channels)
        params[r["case"]] = r["params"]
    return points, params


def main():
    doc = json.load(open(sys.argv[1]))
    points, params = collect(doc)
    print("| case | RTT ms | " + " | ".join(f"{v} Mbit/s (RTT ms)" for v in VARIANTS) +
          " | ACT / single | OPCN / single | ACT / link | channels (OPCN, ACT) |")
    print("|---" * (len(VARIANTS) + 6) + "|")
    for case, row in points.items():
        p = params[case]
        rate, rtt = mbit(p["rate"]), 2 * ms(p["delay"])
        cell = lambda v: f"{row[v][0]:.1f} ({row[v][1]:.0f})" if v in row else "-"
        ratio = lambda a, b: f"{row[a][0] / row[b][0]:.2f}" if a in row and b in row and row[b][0] else "-"
        act_link = f"{row['udt-act'][0] / rate:.2f}" if "udt-act" in row else "-"
        ch = lambda v: f"{row[v][2]:.0f}" if v in row and row[v][2] is not None else "-"
        jitter = f" +-{ms(p['jitter']):.0f}" if ms(p.get("jitter", "0ms")) else ""
        print(f"| {case} | {rtt:.0f}{jitter} | " + " | ".join(cell(v) for v in VARIANTS) +
              f" | {ratio('udt-act', 'udt-single')} | {ratio('udt-opcn', 'udt-single')} | {act_link} |"
              f" {ch('udt-opcn')}, {ch('udt-act')} |")
    fig, (ax, ax_rtt) = plt.subplots(1, 2, figsize=(12, 4.2))
    plain = [c for c in points if not ms(params[c].get("jitter", "0ms"))]
    plain.sort(key=lambda c: ms(params[c]["delay"]))
    for v in VARIANTS:
        cases = [c for c in plain if v in points[c]]
        xs = [2 * ms(params[c]["delay"]) for c in cases]
        ax.plot(xs, [points[c][v][0] for c in cases], marker="o", label=v)
        ax_rtt.plot(xs, [points[c][v][1] for c in cases], marker="o", label=v)
    ax.set_xscale("log")
    ax.set_xlabel("RTT (ms)")
    ax.set_ylabel("goodput of 8 TCP flows (Mbit/s)")
    ax.set_title(f"udt-parallel: {params[plain[0]]['rate']} link, 0.01% loss")
    ax.grid(True, alpha=0.3)
    ax.legend()
    ax_rtt.set_xscale("log")
    ax_rtt.set_yscale("log")
    ax_rtt.set_xlabel("base RTT (ms)")
    ax_rtt.set_ylabel("mean RTT the TCP senders measured (ms)")
    ax_rtt.set_title("RTT through the tunnel")
    ax_rtt.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
