#!/usr/bin/python3
"""Tables of docs/results/tcpnc-loss-sweep.md from a run's results.json (the scenario runner's
output of netns-scenarios/scenarios/tcpnc-loss-sweep.yaml):
  1. goodput per variant per loss, the erasure bound (1 - e) x tcpnc's loss-free goodput, and
     ratios of the tcpnc tunnel to each baseline;
  2. the flow's mean RTT (iperf3 sender) per variant;
  3. the tcpnc sender's (gw1) `ncgw status --json` counters at the end of each tunnel run, with
     the link's measured loss and queue drops.
Usage: table.py results.json > tables.md"""
import json
import sys


def main(path):
    d = json.load(open(path))
    runs = [r for r in d["runs"]]
    variants = d["variants"]
    cases = list(dict.fromkeys(r["case"] for r in runs))
    out = []
    for case in cases:
        rs = [r for r in runs if r["case"] == case]
        points = sorted({r["sweep_value"] for r in rs})
        by = {}
        for r in rs:
            by.setdefault((r["variant"], r["sweep_value"]), []).append(r)

        def goodput(v, p):
            xs = [f["goodput_bps"] / 1e6 for r in by.get((v, p), []) for f in r.get("flows", [])
                  if f["type"] == "tcp" and f.get("goodput_bps") is not None]
            return sum(xs) / len(xs) if xs else None

        def rtt(v, p):
            xs = [f["mean_rtt_ms"] for r in by.get((v, p), []) for f in r.get("flows", [])
                  if f["type"] == "tcp" and f.get("mean_rtt_ms")]
            return sum(xs) / len(xs) if xs else None

        def fmt(x, dg=2):
            return "-" if x is None else f"{x:.{dg}f}"

        base = [v for v in variants if v != "tcpnc"]
        clean = goodput("tcpnc", 0)
        out += [f"### case {case}: goodput (Mbit/s) of the iperf3 TCP flow h1 -> h2", "",
                "| loss | " + " | ".join(variants) + " | (1-e) x tcpnc@0 | "
                + " | ".join(f"tcpnc / {b}" for b in base) + " |",
                "|---|" + "---|" * (len(variants) + 1 + len(base))]
        for p in points:
            g = {v: goodput(v, p) for v in variants}
            ratios = [fmt(g["tcpnc"] / g[b]) if g.get("tcpnc") is not None and g.get(b) else "-"
                      for b in base]
            out.append(f"| {p} | " + " | ".join(fmt(g[v], 3) for v in variants) + " | "
                       + fmt(clean * (1 - p) if clean else None, 3) + " | " + " | ".join(ratios) + " |")
        out += ["", f"### case {case}: the flow's mean RTT (ms, iperf3 sender)", "",
                "| loss | " + " | ".join(variants) + " |", "|---|" + "---|" * len(variants)]
        for p in points:
            out.append(f"| {p} | " + " | ".join(fmt(rtt(v, p), 1) for v in variants) + " |")
        keys = ["cwnd", "srtt_ms", "n", "k", "R", "loss_rate_long", "mean_burst_long",
                "predicted_efficiency", "congestion_events", "retransmissions", "rto_count",
                "entrance_drops"]
        out += ["", f"### case {case}: tcpnc sender gw1 at the end of each run (`ncgw status --json`)"
                " and the link gw1 -> gw2 (linkem)", "",
                "| loss | link loss measured | queue drops | " + " | ".join(keys)
                + " | repairs / sources | seed |", "|---|---|---|" + "---|" * len(keys) + "---|---|"]
        for p in points:
            for r in by.get(("tcpnc", p), []):
                a = (r.get("linkem") or {}).get("gw1-gw2", {}).get("a2b", {})
                reach = a.get("frames_in", 0) - a.get("dropped_queue", 0)
                lm = a.get("dropped_loss", 0) / reach if reach else None
                try:
                    c = r["gateways"]["gw1"]["peers"][0]["core"]
                except (KeyError, IndexError, TypeError):
                    c = {}
                cells = []
                for k in keys:
                    v = c.get(k)
                    cells.append("-" if v is None else (f"{v:.0f}" if float(v).is_integer() else f"{v:.3g}"))
                rep = (fmt(c["repairs_sent"] / c["sources_sent"], 3)
                       if c.get("sources_sent") else "-")
                out.append(f"| {p} | {fmt(lm, 4)} | {a.get('dropped_queue', '-')} | "
                           + " | ".join(cells) + f" | {rep} | {r['seed']} |")
        out.append("")
    errs = [f"{r['case']} {r['variant']} {r['sweep_value']}: {r['error']}" for r in runs if "error" in r]
    if errs:
        out += ["Failed runs:", ""] + [f"- {e}" for e in errs] + [""]
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
