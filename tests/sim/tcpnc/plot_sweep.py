#!/usr/bin/python3
"""Plots the goodput ratio tables of docs/results/tcpnc-sim.md into docs/results/tcpnc-sim-goodput.png.

Usage: /usr/bin/python3 tests/sim/tcpnc/plot_sweep.py [docs/results/tcpnc-sim.md]
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt


def tables(path):
    """Yields (title, rows) for each sweep table: rows of (model, e, ratio_min, ratio_mean)."""
    title, rows = None, []
    for line in open(path, encoding="utf-8"):
        if line.startswith("### "):
            if rows:
                yield title, rows
            title, rows = line[4:].strip(), []
        elif title and (line.startswith("| Bernoulli |") or line.startswith("| Gilbert-Elliott |")):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows.append((cells[0], float(cells[1]), float(cells[3]), float(cells[4])))
    if rows:
        yield title, rows


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "docs/results/tcpnc-sim.md"
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for (title, rows), style in zip(tables(path), ["-", "--"]):
        for model, marker in (("Bernoulli", "o"), ("Gilbert-Elliott", "s")):
            pts = [(e, mean, lo) for m, e, lo, mean in rows if m == model]
            xs = [p[0] * 100 for p in pts]
            ax.plot(xs, [p[1] for p in pts], style, marker=marker, label=f"{model}, {title}")
    ax.axhline(0.8, color="grey", linewidth=0.8)
    ax.set_xlabel("link loss rate e (%)")
    ax.set_ylabel("goodput / ((1 - e) x loss-free goodput)")
    ax.set_title("TCP/NC in the simulator: 10 Mbit/s, RTT 20 ms, mean of 8 seeds")
    ax.set_ylim(0.5, 1.0)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path.replace(".md", "-goodput.png"), dpi=110)


if __name__ == "__main__":
    main()
