#!/usr/bin/python3
"""Tables and plot of docs/results/tcpnc-congestion.md from the results.json of a run of
netns-scenarios/scenarios/tcpnc-defaults.yaml or tcpnc-grid.yaml:
  table.py results.json OUT.png > table.md
Per point (case, and loss model where swept) and flow (the iperf3 flow tcp1, the HTTP download
http1): goodput and mean RTT per variant, the tunnel's ratio to end-to-end TCP with the same host
congestion control and to OpenVPN-TCP-bbr, and the RTT bound 1.5 x base RTT + 10 ms (base RTT =
twice the one-way delay). Averages over repetitions; '-' where a flow failed or did not run."""
import json
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

VARIANTS = ["e2e-bbr", "tcpnc-bbr", "e2e-cubic", "tcpnc-cubic", "openvpn-tcp-bbr"]
RATIOS = [("tcpnc-bbr", "e2e-bbr"), ("tcpnc-cubic", "e2e-cubic"), ("tcpnc-bbr", "openvpn-tcp-bbr")]


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def fmt(x, digits=2):
    return "-" if x is None else f"{x:.{digits}f}"


def ratio(a, b):
    return a / b if a is not None and b else None


def collect(doc):
    """{(point, flow): {variant: (goodput Mbit/s, mean RTT ms)}}, {point: RTT bound ms}."""
    acc, bound = {}, {}
    for r in doc["runs"]:
        point = r["case"] if r.get("sweep_value") is None else f"{r['case']} {r['sweep_value']}"
        bound[point] = 1.5 * 2 * float(str(r["params"]["delay"]).rstrip("ms")) + 10
        for f in r.get("flows", []):
            if f.get("type") in ("tcp", "http"):
                g = f.get("goodput_bps") if "error" not in f else None
                acc.setdefault((point, f["name"]), {}).setdefault(r["variant"], []).append(
                    (g / 1e6 if g else None, f.get("mean_rtt_ms") if g else None))
    return {k: {v: (mean([x[0] for x in xs]), mean([x[1] for x in xs])) for v, xs in vs.items()}
            for k, vs in acc.items()}, bound


def main(path, png):
    avg, bound = collect(json.load(open(path)))
    print("| point | flow | " + " | ".join(f"{v} Mbit/s (RTT ms)" for v in VARIANTS) + " | " +
          " | ".join(f"{a} / {b}" for a, b in RATIOS) + " | RTT bound ms |")
    print("|---" * (len(VARIANTS) + len(RATIOS) + 3) + "|")
    bars = []
    for (point, flow), vs in avg.items():
        cell = lambda v: f"{fmt(vs.get(v, (None, None))[0])} ({fmt(vs.get(v, (None, None))[1], 0)})"  # noqa: E731
        g = {v: vs.get(v, (None, None))[0] for v in VARIANTS}
        rs = [ratio(g[a], g[b]) for a, b in RATIOS]
        bars.append((f"{point}\n{flow}", rs))
        print(f"| {point} | {flow} | " + " | ".join(cell(v) for v in VARIANTS) + " | " +
              " | ".join(fmt(x) for x in rs) + f" | {bound[point]:.0f} |")
    fig, ax = plt.subplots(figsize=(max(8, 0.9 * len(bars)), 3.8))
    width = 0.27
    for i, (a, b) in enumerate(RATIOS):
        ax.bar([k + (i - 1) * width for k in range(len(bars))], [min(r[i] or 0, 3) for _, r in bars], width,
               label=f"{a} / {b}")
    ax.axhline(1.0, color="k", linewidth=0.8)
    ax.axhline(0.95, color="k", linewidth=0.5, linestyle="--")
    ax.set_xticks(range(len(bars)), [label for label, _ in bars], fontsize=6)
    ax.set_ylabel("goodput ratio (capped at 3)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
