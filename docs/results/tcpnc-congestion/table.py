#!/usr/bin/python3
"""Table and plot of docs/results/tcpnc-congestion.md from the results.json of a run of
netns-scenarios/scenarios/tcpnc-defaults.yaml (every case, every variant):
  table.py results.json OUT.png > table.md
Per case: the TCP flow's goodput and mean RTT per variant, the tunnel's ratio to end-to-end TCP with
the same host congestion control and to OpenVPN-TCP-bbr, and the RTT bound 1.5 x base RTT + 10 ms
(base RTT = twice the one-way delay)."""
import json
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

VARIANTS = ["e2e-bbr", "tcpnc-bbr", "e2e-cubic", "tcpnc-cubic", "openvpn-tcp-bbr"]


def tcp_flow(run):
    """The run's TCP flow, or {}."""
    return next((f for f in run.get("flows", []) if f.get("type") == "tcp"), {})


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def fmt(x, digits=2):
    return "-" if x is None else f"{x:.{digits}f}"


def collect(doc):
    """{case: {variant: (goodput Mbit/s, mean RTT ms)}} averaged over repetitions, and base RTTs."""
    out, base = {}, {}
    for r in doc["runs"]:
        f = tcp_flow(r)
        g = f.get("goodput_bps")
        out.setdefault(r["case"], {}).setdefault(r["variant"], []).append(
            (g / 1e6 if g else None, f.get("mean_rtt_ms")))
        base[r["case"]] = 2 * float(str(r["params"]["delay"]).rstrip("ms"))
    avg = {c: {v: (mean([x[0] for x in xs]), mean([x[1] for x in xs])) for v, xs in vs.items()}
           for c, vs in out.items()}
    return avg, base


def ratio(a, b):
    return a / b if a is not None and b else None


def main(path, png):
    doc = json.load(open(path))
    avg, base = collect(doc)
    print("| case | " + " | ".join(f"{v} Mbit/s (RTT ms)" for v in VARIANTS) +
          " | tcpnc-bbr / e2e-bbr | tcpnc-cubic / e2e-cubic | tcpnc-bbr / openvpn-tcp-bbr | RTT bound ms |")
    print("|---" * (len(VARIANTS) + 5) + "|")
    rows = []
    for case, vs in avg.items():
        cells = [f"{fmt(vs.get(v, (None, None))[0])} ({fmt(vs.get(v, (None, None))[1], 0)})" for v in VARIANTS]
        g = {v: vs.get(v, (None, None))[0] for v in VARIANTS}
        r = [ratio(g["tcpnc-bbr"], g["e2e-bbr"]), ratio(g["tcpnc-cubic"], g["e2e-cubic"]),
             ratio(g["tcpnc-bbr"], g["openvpn-tcp-bbr"])]
        rows.append((case, r))
        print(f"| {case} | " + " | ".join(cells) + " | " + " | ".join(fmt(x) for x in r) +
              f" | {1.5 * base[case] + 10:.0f} |")
    fig, ax = plt.subplots(figsize=(8, 3.5))
    width = 0.27
    for i, label in enumerate(["tcpnc-bbr / e2e-bbr", "tcpnc-cubic / e2e-cubic", "tcpnc-bbr / openvpn-tcp-bbr"]):
        ax.bar([k + (i - 1) * width for k in range(len(rows))], [min(r[i] or 0, 5) for _, r in rows], width,
               label=label)
    ax.axhline(1.0, color="k", linewidth=0.8)
    ax.axhline(0.95, color="k", linewidth=0.5, linestyle="--")
    ax.set_xticks(range(len(rows)), [c for c, _ in rows])
    ax.set_ylabel("goodput ratio (capped at 5)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
