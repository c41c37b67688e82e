#!/usr/bin/python3
"""PNG plots for docs/results/paper002.md from the scenario runner's results.json: per case, goodput
per session (as paper 002 Fig. 7) and total goodput (Fig. 8) against the per-link loss rate, E2E-TCP
solid and TCP/NC tunnel dashed, with the paper's few published numbers marked. A flow that failed
in every repetition (iperf3 never connected) is drawn at 0 with an x.
Usage: plots.py OUT_DIR RESULTS_JSON [RESULTS_JSON ...]"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Numbers the paper states in its text (section 3.2): (topology, case) -> {variant: total Mbit/s at loss 0}.
PAPER_TOTALS = {("paper002-topology1", "case1"): {"e2e": 2.87, "tunnel": 2.77}}
# Cases where the paper says the tunnel keeps sessions 1 and 2 at about 1 Mbit/s under loss.
PAPER_ONE_MBIT = {("paper002-topology1", "case2"), ("paper002-topology1", "case3")}


def series(rows, key):
    """(x, y, failed-x) of one variant's rows for a value getter."""
    xs, ys, failed = [], [], []
    for r in rows:
        y = key(r)
        xs.append(float(r["sweep_value"]))
        ys.append(0.0 if y is None else y)
        if y is None:
            failed.append(float(r["sweep_value"]))
    return xs, ys, failed


def plot_case(doc, case, rows, path):
    """Writes one case's two-panel figure."""
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    for variant, style in (("e2e", "-o"), ("tunnel", "--s")):
        vr = sorted((r for r in rows if r["variant"] == variant), key=lambda r: float(r["sweep_value"]))
        if not vr:
            continue
        label = "E2E-TCP" if variant == "e2e" else "TCP/NC tunnel"
        for j, n in enumerate(vr[0]["flows"]):
            xs, ys, failed = series(vr, lambda r: r["flows"][n]["goodput_mbps"])
            ax1.plot(xs, ys, style, color=f"C{j}", label=f"{n} {label}")
            ax1.plot(failed, [0] * len(failed), "x", color=f"C{j}", markersize=9)
        xs, ys, _ = series(vr, lambda r: r["total_goodput_mbps"])
        ax2.plot(xs, ys, style, label=f"ncgw {label}")
    paper = PAPER_TOTALS.get((doc["scenario"], case), {})
    for variant, y in paper.items():
        ax2.plot([0], [y], "*", markersize=12, label=f"paper {'E2E-TCP' if variant == 'e2e' else 'tunnel'}: {y}")
    if (doc["scenario"], case) in PAPER_ONE_MBIT:
        ax1.axhline(1.0, color="grey", linestyle=":", label="paper: tunnel s1, s2 ~1 Mbit/s under loss")
    for ax, title in ((ax1, "goodput per session (cf. Fig. 7)"), (ax2, "total goodput (cf. Fig. 8)")):
        ax.set_xlabel("loss rate per inter-gateway link")
        ax.set_ylabel("goodput (Mbit/s)")
        ax.set_title(f"{doc['scenario'].replace('paper002-', '')} {case}: {title}")
        ax.set_ylim(0, max(ax.get_ylim()[1], 1) * 1.15)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(out_dir, paths):
    for path in paths:
        doc = json.load(open(path))
        agg = doc["summary"]
        for case in dict.fromkeys(r["case"] for r in agg):
            out = os.path.join(out_dir, f"{doc['scenario'].replace('paper002-', '')}-{case}.png")
            plot_case(doc, case, [r for r in agg if r["case"] == case], out)
            print(out)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
