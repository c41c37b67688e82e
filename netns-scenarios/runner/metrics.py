"""Metrics of a run and their aggregation over repetitions: goodput, Jain's fairness index,
mean RTT and Power = throughput / mean RTT (paper 003, eq. 5)."""
import statistics


def jain(xs):
    """Jain's fairness index (sum x)^2 / (n sum x^2); 1 is perfectly fair. None if undefined."""
    xs = [x for x in xs if x is not None]
    sq = sum(x * x for x in xs)
    return (sum(xs) ** 2) / (len(xs) * sq) if xs and sq > 0 else None


def _flow_rtt(flow, pings):
    """Mean RTT (ms) of a flow: its TCP sender's mean RTT, else a ping on the same path."""
    if flow.get("mean_rtt_ms"):
        return flow["mean_rtt_ms"]
    for p in pings:
        if p["from"] == flow["from"] and p["to"] == flow["to"] and p.get("rtt_mean_ms"):
            return p["rtt_mean_ms"]
    return None


# Latency figures of a flow that the tables show when a run has them: a ping's median and 95th
# percentile RTT and its share of requests without a reply, and the completion times of an http
# flow of repeated short downloads.
_LATENCY_KEYS = ("rtt_median_ms", "rtt_p95_ms", "lost_pct", "completion_median_ms", "completion_p95_ms")


def run_metrics(flows):
    """Per-run metrics from its flow results (dict)."""
    sessions = [f for f in flows if f["type"] != "ping"]
    pings = [f for f in flows if f["type"] == "ping"]
    per = {}
    for f in sessions:
        g = f.get("goodput_bps")
        rtt = _flow_rtt(f, pings)
        per[f["name"]] = {"goodput_mbps": g / 1e6 if g is not None else None, "rtt_ms": rtt,
                          "power": (g / 1e6) / (rtt / 1e3) if g is not None and rtt else None}
    latency = {}
    for f in flows:
        for key in _LATENCY_KEYS:
            if f.get(key) is not None:
                latency[f"{f['name']} {key}"] = f[key]
    goodputs = [v["goodput_mbps"] for v in per.values()]
    rtts = [v["rtt_ms"] for v in per.values() if v["rtt_ms"]]
    total = sum(g for g in goodputs if g is not None) if goodputs else None
    mean_rtt = statistics.mean(rtts) if rtts else None
    return {"flows": per, "total_goodput_mbps": total, "jain": jain(goodputs),
            "mean_rtt_ms": mean_rtt,
            "power": total / (mean_rtt / 1e3) if total is not None and mean_rtt else None,
            "failed_flows": [f["name"] for f in flows if "error" in f], "latency": latency}


def _mean_sd(xs):
    """(mean, sample standard deviation) of the non-None values; (None, None) if none."""
    xs = [x for x in xs if x is not None]
    if not xs:
        return None, None
    return statistics.mean(xs), (statistics.stdev(xs) if len(xs) > 1 else 0.0)


def aggregate(runs):
    """Groups runs by (case, variant, sweep value) and averages their metrics over repetitions.
    Returns a list of dicts in run order."""
    groups, order = {}, []
    for r in runs:
        key = (r["case"], r["variant"], r["sweep_value"])
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(r["metrics"])
    out = []
    for key in order:
        ms = groups[key]
        names = list(ms[0]["flows"])
        row = {"case": key[0], "variant": key[1], "sweep_value": key[2], "runs": len(ms), "flows": {}}
        for n in names:
            m, sd = _mean_sd([x["flows"].get(n, {}).get("goodput_mbps") for x in ms])
            rtt, _ = _mean_sd([x["flows"].get(n, {}).get("rtt_ms") for x in ms])
            pw, _ = _mean_sd([x["flows"].get(n, {}).get("power") for x in ms])
            row["flows"][n] = {"goodput_mbps": m, "goodput_sd": sd, "rtt_ms": rtt, "power": pw}
        for k in ("total_goodput_mbps", "jain", "mean_rtt_ms", "power"):
            row[k], row[k + "_sd"] = _mean_sd([x[k] for x in ms])
        row["failed_flows"] = sum(len(x["failed_flows"]) for x in ms)
        row["latency"] = {k: _mean_sd([x.get("latency", {}).get(k) for x in ms])[0]
                          for k in dict.fromkeys(k for x in ms for k in x.get("latency", {}))}
        out.append(row)
    return out
