#!/usr/bin/python3
"""Markdown tables for docs/results/paper002.md from the scenario runner's results.json files:
per case, per-session and total goodput of E2E-TCP and the TCP/NC tunnel side by side at each loss
rate, the tunnel / E2E ratio, and the seeds of every run.
Usage: tables.py RESULTS_JSON [RESULTS_JSON ...]"""
import json
import sys


def f(x, sd=None):
    """Mean (± sd) with 2 decimals."""
    if x is None:
        return "-"
    return f"{x:.2f}" if sd is None else f"{x:.2f} ± {sd:.2f}"


def case_table(rows):
    """Lines of one case's side-by-side table."""
    flows = list(rows[0]["flows"])
    by = {(r["variant"], r["sweep_value"]): r for r in rows}
    losses = sorted({r["sweep_value"] for r in rows})
    head = ["loss"] + [f"E2E {n}" for n in flows] + ["E2E total"] + \
           [f"tunnel {n}" for n in flows] + ["tunnel total", "tunnel / E2E"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for loss in losses:
        cells = [str(loss)]
        totals = {}
        for v in ("e2e", "tunnel"):
            r = by.get((v, loss))
            if r is None:
                cells += ["-"] * (len(flows) + 1)
                continue
            cells += [f(r["flows"][n]["goodput_mbps"], r["flows"][n]["goodput_sd"]) for n in flows]
            cells.append(f(r["total_goodput_mbps"], r.get("total_goodput_mbps_sd")))
            totals[v] = r["total_goodput_mbps"]
        ratio = totals["tunnel"] / totals["e2e"] if totals.get("e2e") and "tunnel" in totals else None
        cells.append("-" if ratio is None else f"{ratio:.2f}")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def seeds_line(doc):
    """The seeds every run used."""
    seeds = sorted({r["seed"] for r in doc["runs"]})
    failed = [r for r in doc["runs"] if r.get("error") or r.get("metrics", {}).get("failed_flows")]
    return (f"Base seed {doc['seed']}, run seeds {seeds} (linkem seeds "
            f"derive from the run seed per link, recorded in results.json); {len(doc['runs'])} runs, "
            f"{len(failed)} with a failed flow or error.")


def _peer(status, name):
    """The peer entry called `name` in a gateway status document."""
    return next(p for p in status["peers"] if p["name"] == name)


def hop_table(doc, case):
    """Lines of the tunnel runs' per-hop figures at the end of each run: each sending session's own
    loss estimate and gw2's in-process forwarding (forwarded packets, packets read from its TUN)."""
    runs = [r for r in doc["runs"] if r["case"] == case and r["variant"] == "tunnel" and r.get("gateways")]
    lines = ["| loss | gw1→gw2 loss_rate_est | gw2→gw3 loss_rate_est | gw2 forwarded_packets | gw2 tun_rx_packets |",
             "|---|---|---|---|---|"]
    for loss in sorted({r["sweep_value"] for r in runs}):
        rs = [r["gateways"] for r in runs if r["sweep_value"] == loss]
        mean = lambda xs: sum(xs) / len(xs)
        l12 = mean([_peer(g["gw1"], "gw2")["core"]["loss_rate_est"] for g in rs])
        l23 = mean([_peer(g["gw2"], "gw3")["core"]["loss_rate_est"] for g in rs])
        fwd = mean([g["gw2"]["counters"]["forwarded_packets"] for g in rs])
        tun = mean([g["gw2"]["counters"]["tun_rx_packets"] for g in rs])
        lines.append(f"| {loss} | {l12:.3f} | {l23:.3f} | {fwd:.0f} | {tun:.0f} |")
    return lines


def main(paths):
    for path in paths:
        doc = json.load(open(path))
        print(f"### {doc['scenario']}\n")
        print(seeds_line(doc) + "\n")
        agg = doc["summary"]
        for case in dict.fromkeys(r["case"] for r in agg):
            print(f"#### {case}\n")
            print("\n".join(case_table([r for r in agg if r["case"] == case])) + "\n")
            print("Tunnel runs, per hop (means over repetitions, read from `ncgw status --json` at the end of each run):\n")
            print("\n".join(hop_table(doc, case)) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
