"""Per-second metrics of one run, as paper 003 plots them (Figs. 4-6): each flow's throughput at
its receiver, Jain's index across the flows active in that second, and Power = total throughput /
mean RTT (ping across the bottleneck); and goals evaluated over the window in which every UDP flow
is active. Scenario key `timeseries: {capacity_mbit, settle_s}`: the bottleneck's rate, and how
long after the last UDP flow starts the settled window begins."""
import math
import statistics

from .metrics import jain
from .traffic import parse_size


def _per_second(series):
    """{second: Mbit/s} of a receiver series [[start, end, bit/s], ...] (interval start floored)."""
    out = {}
    for a, b, bps in series or []:
        if b - a >= 0.5:  # iperf3's final partial interval is skipped
            out[int(math.floor(a + 1e-6))] = bps / 1e6
    return out


def _active(flow, t):
    """True if `flow` was meant to send in second t: from the second of its scheduled start (its
    first receiver interval, which begins a fraction of a second after the start, is floored
    into that second by _per_second; a flow whose test starts late, starved of its control
    connection, gets 0 until then) to the end of its test (its last, partial second left out)."""
    s = flow.get("started_at")
    end = flow.get("test_start", s)
    return s is not None and math.floor(s + 1e-6) <= t and t + 2 <= end + float(flow["duration"]) + 0.5


def _ping_rtt(pings, t):
    """Mean ping RTT (ms) of samples sent in [t, t+1), over every ping flow; None if none."""
    xs = []
    for p in pings:
        start, step = p.get("started_at"), p.get("interval", 0.2)
        if start is None:
            continue
        for seq, rtt in zip(p.get("rtt_seq", []), p.get("rtt_ms", [])):
            if t <= start + (seq - 1) * step < t + 1:
                xs.append(rtt)
    return statistics.mean(xs) if xs else None


def run_series(flows):
    """[{t, flows: {name: Mbit/s}, active: [...], total, jain, rtt_ms, power}] per second."""
    # A flow that failed (iperf3 starved out of its own control connection, say) counts as 0 in
    # the seconds it was meant to send: leaving it out would flatter the fairness of that run.
    sessions = [f for f in flows if f["type"] in ("tcp", "udp")]
    pings = [f for f in flows if f["type"] == "ping"]
    per = {f["name"]: _per_second(f.get("series")) for f in sessions}
    last = max((max(v) for v in per.values() if v), default=-1)
    rows = []
    for t in range(0, last + 1):
        active = [f["name"] for f in sessions if _active(f, t)]
        rates = {n: per[n].get(t, 0.0) for n in active}
        total = sum(rates.values())
        rtt = _ping_rtt(pings, t)
        rows.append({"t": t, "flows": rates, "active": active, "total": total,
                     "jain": jain(list(rates.values())) if rates else None, "rtt_ms": rtt,
                     "power": total / (rtt / 1e3) if rtt else None})
    return rows


def max_min_shares(capacity, demands):
    """Max-min fair shares of `capacity` for {name: demand or None (elastic)}."""
    left, names = capacity, sorted(demands, key=lambda n: math.inf if demands[n] is None else demands[n])
    out = {}
    for i, n in enumerate(names):
        share = max(0.0, left) / (len(names) - i)
        out[n] = share if demands[n] is None else min(demands[n], share)
        left -= out[n]
    return out


def udp_window(flows, settle_s):
    """(start, end) seconds in which every UDP flow sends, from `settle_s` after the last one
    started; None without UDP flows."""
    udp = [f for f in flows if f["type"] == "udp" and f.get("started_at") is not None]
    if not udp:
        return None
    start = max(f["started_at"] for f in udp)  # scheduled: a starved flow's late start is its loss
    end = min(f["started_at"] + float(f["duration"]) for f in udp)
    return int(math.ceil(start + settle_s)), int(math.floor(end)) - 2  # iperf3's last second is ragged


def window_goals(flows, rows, capacity_mbit, settle_s):
    """Figures over the UDP window, second by second across the flows active in each second:
    Jain's index (mean, median, share of seconds >= 0.95), each TCP flow's throughput / its
    max-min fair share of `capacity_mbit` (UDP demand: its bitrate; mean over the seconds it is
    active), utilisation = total / capacity, mean RTT and Power; and mean throughput per flow."""
    w = udp_window(flows, settle_s)
    sel = [r for r in rows if w and w[0] <= r["t"] <= w[1] and r["flows"]]
    if not sel:
        return None
    kinds = {f["name"]: f for f in flows}
    ratios = {}
    for r in sel:
        demands = {n: (parse_size(kinds[n]["bitrate"]) / 1e6 if kinds[n]["type"] == "udp" else None)
                   for n in r["flows"]}
        shares = max_min_shares(capacity_mbit, demands)
        for n, v in r["flows"].items():
            if demands[n] is None:
                ratios.setdefault(n, []).append(v / shares[n])
    tcp = {n: statistics.mean(v) for n, v in ratios.items()}
    jains = [r["jain"] for r in sel if r["jain"] is not None]
    rtts = [r["rtt_ms"] for r in sel if r["rtt_ms"]]
    powers = [r["power"] for r in sel if r["power"]]
    names = list(dict.fromkeys(n for r in sel for n in r["flows"]))
    return {"window_s": list(w), "seconds": len(sel),
            "flows": {n: statistics.mean(r["flows"][n] for r in sel if n in r["flows"]) for n in names},
            "tcp_share_ratio": tcp, "min_tcp_share_ratio": min(tcp.values()) if tcp else None,
            "jain_mean": statistics.mean(jains), "jain_median": statistics.median(jains),
            "jain_ge_095": sum(j >= 0.95 for j in jains) / len(jains),
            "total_mbps": statistics.mean(r["total"] for r in sel),
            "utilisation": statistics.mean(r["total"] for r in sel) / capacity_mbit,
            "mean_rtt_ms": statistics.mean(rtts) if rtts else None,
            "power": statistics.mean(powers) if powers else None}
