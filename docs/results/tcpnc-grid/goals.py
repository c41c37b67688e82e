#!/usr/bin/python3
"""Tables and plots of docs/results/tcpnc-grid.md from one or more results.json files of
netns-scenarios/scenarios/tcpnc-grid.yaml (a run may cover some cases only):
  goals.py OUT_PREFIX results.json [results.json ...] > tables.md
writes OUT_PREFIX-ratios.png and OUT_PREFIX-rtt.png.

Per point (case = link rate and one-way delay, loss model) and flow (iperf3 tcp1, HTTP http1):
goodput and mean RTT of every variant, and each goal of the grid checked in the same run:
  limit    tcpnc-H >= 0.90 x (1 - e) x tcpnc-H without loss on that link (lossy points; H = host cc)
  e2e      tcpnc-cubic >= 1.0 x e2e-cubic where e2e-cubic is below 0.9 of the link rate, else
           >= 0.95 x; tcpnc-bbr >= 0.95 x e2e-bbr
  openvpn  tcpnc-bbr >= 1.0 x openvpn-tcp-bbr at lossy points (1.3 x where e = 15 %)
  rtt      the tunnel's mean RTT <= 1.5 x base RTT + 10 ms, and <= 0.5 x openvpn-tcp-bbr's
Averages over repetitions; '-' where a flow failed or did not run (a failed flow counts as 0 for
the tunnel and as missing for a baseline)."""
import json
import re
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HOSTS = ["bbr", "cubic"]
LOSS_ORDER = ["none", "bernoulli:0.01", "bernoulli:0.05", "bernoulli:0.1",
              "gilbert:p=0.0175,r=0.3333,good=0,bad=1", "gilbert:p=0.0588,r=0.3333,good=0,bad=1"]
LOSS_LABEL = {"none": "0", "bernoulli:0.01": "1%", "bernoulli:0.05": "5%", "bernoulli:0.1": "10%",
              "gilbert:p=0.0175,r=0.3333,good=0,bad=1": "GE5%",
              "gilbert:p=0.0588,r=0.3333,good=0,bad=1": "GE15%"}


def loss_rate(spec):
    """Mean loss rate e of a linkem loss spec (Bernoulli, or Gilbert-Elliott with good=0, bad=1)."""
    if spec == "none":
        return 0.0
    m = re.match(r"bernoulli:([0-9.]+)$", spec)
    if m:
        return float(m.group(1))
    m = re.match(r"gilbert:p=([0-9.]+),r=([0-9.]+),good=0,bad=1$", spec)
    if m:
        p, r = float(m.group(1)), float(m.group(2))
        return p / (p + r)
    raise ValueError(f"unknown loss spec {spec}")


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def collect(paths):
    """{(case, loss, flow): {variant: (Mbit/s, RTT ms)}}, {case: (rate Mbit/s, base RTT ms)}."""
    acc, links = {}, {}
    for path in paths:
        for r in json.load(open(path))["runs"]:
            case, loss = r["case"], r.get("sweep_value") or r["params"]["loss_spec"]
            links[case] = (float(r["params"]["rate_mbit"]), 2 * float(r["params"]["delay_ms"]))
            for f in r.get("flows", []):
                if f.get("type") not in ("tcp", "http"):
                    continue
                g = f.get("goodput_bps") if "error" not in f else None
                if g is None and r["kind"] == "tunnel":
                    g = 0.0
                acc.setdefault((case, loss, f["name"]), {}).setdefault(r["variant"], []).append(
                    (g / 1e6 if g is not None else None, f.get("mean_rtt_ms") if g else None))
    avg = {k: {v: (mean([x[0] for x in xs]), mean([x[1] for x in xs])) for v, xs in vs.items()}
           for k, vs in acc.items()}
    return avg, links


def ratio(a, b):
    return a / b if a is not None and b else None


def check(value, goal):
    if value is None:
        return "-", None
    return f"{value:.2f}{'' if value >= goal else ' **x**'}", value >= goal


def point_goals(avg, links, case, loss, flow):
    """Rows of (name, text, met) for one point and flow."""
    vs = avg[(case, loss, flow)]
    g = {v: vs.get(v, (None, None))[0] for v in vs}
    rtt = {v: vs.get(v, (None, None))[1] for v in vs}
    rate, base = links[case]
    e = loss_rate(loss)
    out = []
    for h in HOSTS:
        t = g.get(f"tcpnc-{h}")
        if e > 0:
            clean = avg.get((case, "none", flow), {}).get(f"tcpnc-{h}", (None, None))[0]
            out.append((f"limit {h}", *check(ratio(t, (1 - e) * clean) if clean else None, 0.90)))
        e2e = g.get(f"e2e-{h}")
        need = 1.0 if h == "cubic" and e2e is not None and e2e < 0.9 * rate else 0.95
        out.append((f"e2e {h} (>= {need})", *check(ratio(t, e2e), need)))
        bound = 1.5 * base + 10
        r = rtt.get(f"tcpnc-{h}")
        out.append((f"rtt {h} <= {bound:.0f}", *check(bound / r if r else None, 1.0)))
    if e > 0:
        need = 1.3 if abs(e - 0.15) < 0.01 else 1.0
        out.append((f"openvpn (>= {need})", *check(ratio(g.get("tcpnc-bbr"), g.get("openvpn-tcp-bbr")), need)))
        ro, rt = rtt.get("openvpn-tcp-bbr"), rtt.get("tcpnc-bbr")
        out.append(("rtt <= openvpn / 2", *check(ratio(ro, 2 * rt) if rt else None, 1.0)))
    return out


def short_name(goal):
    """A goal's column name: its text without the threshold."""
    return goal.split(" (")[0].split(" <=")[0]


def fmt(x, digits=2):
    return "-" if x is None else f"{x:.{digits}f}"


def points(avg, links):
    keys = sorted(avg, key=lambda k: (links[k[0]], LOSS_ORDER.index(k[1]) if k[1] in LOSS_ORDER else 99, k[2]))
    return keys


def print_tables(avg, links):
    variants = ["e2e-cubic", "e2e-bbr", "tcpnc-cubic", "tcpnc-bbr", "openvpn-tcp-bbr"]
    print("| link | loss | flow | " + " | ".join(f"{v} Mbit/s (RTT ms)" for v in variants) + " |")
    print("|---" * (len(variants) + 3) + "|")
    for case, loss, flow in points(avg, links):
        vs = avg[(case, loss, flow)]
        cells = [f"{fmt(vs.get(v, (None, None))[0])} ({fmt(vs.get(v, (None, None))[1], 0)})" for v in variants]
        print(f"| {case} | {LOSS_LABEL.get(loss, loss)} | {flow} | " + " | ".join(cells) + " |")
    print()
    print("Goals (ratio to the goal's comparison; **x**: missed):")
    print()
    tally = {}
    for case, loss, flow in points(avg, links):
        for n, _, met in point_goals(avg, links, case, loss, flow):
            if met is not None:
                tally.setdefault(short_name(n), [0, 0])[0 if met else 1] += 1
    cols = ["limit bbr", "e2e bbr", "rtt bbr", "limit cubic", "e2e cubic", "rtt cubic", "openvpn", "rtt"]
    print("| link | loss | flow | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 3) + "|")
    for case, loss, flow in points(avg, links):
        rows = {short_name(n): text for n, text, _ in point_goals(avg, links, case, loss, flow)}
        print(f"| {case} | {LOSS_LABEL.get(loss, loss)} | {flow} | " + " | ".join(rows.get(c, "") for c in cols) + " |")
    print()
    print("Met / missed per goal: " + ", ".join(f"{k} {v[0]}/{v[0] + v[1]}" for k, v in tally.items()))


def plot(avg, links, prefix):
    keys = points(avg, links)
    labels = [f"{c}\n{LOSS_LABEL.get(l, l)}\n{f}" for c, l, f in keys]
    fig, ax = plt.subplots(figsize=(max(8, 0.45 * len(keys)), 4))
    width = 0.27
    for i, h in enumerate(HOSTS):
        ys = [ratio(avg[k].get(f"tcpnc-{h}", (None,))[0], avg[k].get(f"e2e-{h}", (None,))[0]) or 0 for k in keys]
        ax.bar([x + (i - 1) * width for x in range(len(keys))], [min(y, 4) for y in ys], width,
               label=f"tcpnc-{h} / e2e-{h}")
    ys = [ratio(avg[k].get("tcpnc-bbr", (None,))[0], avg[k].get("openvpn-tcp-bbr", (None,))[0]) or 0 for k in keys]
    ax.bar([x + width for x in range(len(keys))], [min(y, 4) for y in ys], width, label="tcpnc-bbr / openvpn-tcp-bbr")
    ax.axhline(1.0, color="k", linewidth=0.8)
    ax.axhline(0.95, color="k", linewidth=0.5, linestyle="--")
    ax.set_xticks(range(len(keys)), labels, fontsize=5)
    ax.set_ylabel("goodput ratio (capped at 4)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(f"{prefix}-ratios.png", dpi=110)

    fig, ax = plt.subplots(figsize=(max(8, 0.45 * len(keys)), 4))
    for i, v in enumerate(["e2e-bbr", "tcpnc-bbr", "tcpnc-cubic", "openvpn-tcp-bbr"]):
        ys = [(avg[k].get(v, (None, None))[1] or 0) / links[k[0]][1] for k in keys]
        ax.bar([x + (i - 1.5) * 0.2 for x in range(len(keys))], ys, 0.2, label=v)
    ax.plot(range(len(keys)), [(1.5 * links[k[0]][1] + 10) / links[k[0]][1] for k in keys], "k_", markersize=12,
            label="bound 1.5 x base + 10 ms")
    ax.set_xticks(range(len(keys)), labels, fontsize=5)
    ax.set_ylabel("mean RTT / base RTT")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(f"{prefix}-rtt.png", dpi=110)


def main(prefix, paths):
    avg, links = collect(paths)
    print_tables(avg, links)
    plot(avg, links, prefix)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
