"""Results output: JSON, a markdown table, and PNG plots of goodput against the swept parameter
(per session, as paper 002 Fig. 7, and total, as Fig. 8)."""
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _f(x, digits=3):
    """Number formatting for tables ('-' for missing)."""
    return "-" if x is None else f"{x:.{digits}f}"


def write_json(path, doc):
    """Writes the results document."""
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, default=str)


def markdown(doc):
    """The markdown table(s) of a results document."""
    agg, sweep = doc["summary"], doc.get("sweep_parameter") or "-"
    lines = [f"# {doc['scenario']} ({doc['started']})", "",
             f"Variants: {', '.join(_variant_label(doc, v) for v in doc['variants'])}. "
             f"Repetitions per point: {doc['repetitions']}. Base seed: {doc['seed']}. "
             "Goodput in Mbit/s (mean over repetitions, ± sample sd); RTT: TCP sender's mean "
             "RTT (iperf3) or ping; Power = goodput / mean RTT in (Mbit/s)/s; Jain's index across "
             "sessions.", ""]
    for case in dict.fromkeys(r["case"] for r in agg):
        rows = [r for r in agg if r["case"] == case]
        names = list(rows[0]["flows"])
        lines += [f"## case {case}", "",
                  "| variant | " + sweep + " | " + " | ".join(names) +
                  " | total | Jain | mean RTT ms | Power | runs |",
                  "|---|---|" + "---|" * len(names) + "---|---|---|---|---|"]
        for r in rows:
            cells = [f"{_f(r['flows'][n]['goodput_mbps'])} ± {_f(r['flows'][n]['goodput_sd'])}"
                     for n in names]
            point = "-" if r["sweep_value"] is None else r["sweep_value"]
            lines.append(f"| {_variant_label(doc, r['variant'])} | {point} | " +
                         " | ".join(cells) + f" | {_f(r['total_goodput_mbps'])} | {_f(r['jain'])} |"
                         f" {_f(r['mean_rtt_ms'], 1)} | {_f(r['power'], 1)} | {r['runs']}"
                         + (f" ({r['failed_flows']} failed flows)" if r["failed_flows"] else "") + " |")
        lines += [""] + (ratio_lines(rows) if set(doc["variants"]) <= {"e2e", "tunnel"}
                         else ratio_matrix_lines(doc, rows)) + [""]
    lines += latency_lines(doc)
    lines += window_lines(doc)
    return "\n".join(lines)


def latency_lines(doc):
    """Markdown table of the latency figures (ping percentiles, short-download completion times),
    means over repetitions, if any run has them."""
    rows = [r for r in doc["summary"] if r.get("latency")]
    if not rows:
        return []
    keys = list(dict.fromkeys(k for r in rows for k in r["latency"]))
    sweep = doc.get("sweep_parameter") or "-"
    lines = ["## latency (ms, lost_pct in %; means over repetitions)", "",
             "| case | variant | " + sweep + " | " + " | ".join(keys) + " |",
             "|---|---|---|" + "---|" * len(keys)]
    for r in rows:
        point = "-" if r["sweep_value"] is None else r["sweep_value"]
        lines.append(f"| {r['case']} | {_variant_label(doc, r['variant'])} | {point} | " +
                     " | ".join(_f(r["latency"].get(k), 1) for k in keys) + " |")
    return lines + [""]


def window_lines(doc):
    """Markdown table of the runs' UDP-window figures (timeseries.window_goals), if any."""
    runs = [r for r in doc["runs"] if r.get("window")]
    if not runs:
        return []
    w0 = runs[0]["window"]
    names = list(w0["flows"])
    lines = [f"## while every UDP flow is active (seconds {w0['window_s'][0]}-{w0['window_s'][1]} of the "
             "first run), second by second across the active flows", "",
             "Throughput: mean of the receivers' per-second Mbit/s over the seconds each flow is active.", "",
             "| run | variant | " + " | ".join(names) + " | total | utilisation | Jain mean | Jain median | "
             "s with Jain >= 0.95 | min TCP / fair share | mean RTT ms | Power |",
             "|---|---|" + "---|" * len(names) + "---|---|---|---|---|---|---|---|"]
    for r in runs:
        w = r["window"]
        lines.append(f"| {r['rep'] + 1} | {r['variant']} | " + " | ".join(_f(w['flows'].get(n)) for n in names)
                     + f" | {_f(w['total_mbps'])} | {_f(w['utilisation'])} | {_f(w['jain_mean'])} | "
                     f"{_f(w['jain_median'])} | {_f(w['jain_ge_095'], 2)} | {_f(w['min_tcp_share_ratio'])} | "
                     f"{_f(w['mean_rtt_ms'], 1)} | {_f(w['power'], 1)} |")
    return lines + [""]


def timeseries_plots(doc, out_dir):
    """Paper 003 Figs. 4-6 of the first repetition of each variant and case: per-flow throughput
    (one panel per variant), Jain's index and Power over time; returns the PNG paths."""
    paths = []
    for case in dict.fromkeys(r["case"] for r in doc["runs"]):
        runs = {}
        for r in doc["runs"]:
            if r["case"] == case and r.get("timeseries") and r["variant"] not in runs:
                runs[r["variant"]] = r
        if not runs:
            continue
        fig, axes = plt.subplots(len(runs), 1, figsize=(10, 3.2 * len(runs)), sharex=True, squeeze=False)
        for ax, (v, r) in zip(axes[:, 0], runs.items()):
            names = list(dict.fromkeys(n for row in r["timeseries"] for n in row["flows"]))
            for j, n in enumerate(names):
                ax.plot([row["t"] for row in r["timeseries"]],
                        [row["flows"].get(n, float("nan")) for row in r["timeseries"]], label=n, color=f"C{j}")
            ax.set_ylabel("Mbit/s")
            ax.set_title(f"per-flow throughput: {v}")
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7, ncol=3)
        axes[-1, 0].set_xlabel("time (s)")
        fig.tight_layout()
        paths.append(_save(fig, out_dir, f"throughput-{case}.png"))
        for key, label in (("jain", "Jain's fairness index"), ("power", "Power ((Mbit/s)/s)")):
            fig, ax = plt.subplots(figsize=(10, 3.5))
            for v, r in runs.items():
                ax.plot([row["t"] for row in r["timeseries"]],
                        [_nan([row[key]])[0] for row in r["timeseries"]], label=v)
            ax.set_xlabel("time (s)")
            ax.set_ylabel(label)
            ax.set_title(f"{doc['scenario']} {case}: {label} across active flows")
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=8)
            fig.tight_layout()
            paths.append(_save(fig, out_dir, f"{key}-{case}.png"))
    return paths


def _save(fig, out_dir, name):
    """Writes a figure as PNG and closes it; returns the path."""
    path = os.path.join(out_dir, name)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _kind(doc, v):
    """Kind (e2e | tunnel | openvpn-tcp) of variant name `v`."""
    return (doc.get("variant_kinds") or {}).get(v, v)


def _variant_label(doc, v):
    """'e2e' or 'tunnel (transport: X)' (a named tunnel variant: 'NAME (transport: X)')."""
    return f"{v} (transport: {doc['transport']})" if _kind(doc, v) == "tunnel" else v


def ratios(rows):
    """(sweep value, e2e total, tunnel total, tunnel/e2e) for points that ran both variants."""
    e2e = {r["sweep_value"]: r for r in rows if r["variant"] == "e2e"}
    out = []
    for r in rows:
        if r["variant"] == "tunnel" and r["sweep_value"] in e2e:
            a, b = e2e[r["sweep_value"]]["total_goodput_mbps"], r["total_goodput_mbps"]
            out.append((r["sweep_value"], a, b, b / a if a and b is not None else None))
    return out


def ratio_lines(rows):
    """Markdown lines of the tunnel / e2e goodput ratios (empty if not both variants ran)."""
    rs = ratios(rows)
    if not rs:
        return []
    lines = ["| point | e2e total | tunnel total | tunnel / e2e |", "|---|---|---|---|"]
    for v, a, b, q in rs:
        lines.append(f"| {'-' if v is None else v} | {_f(a)} | {_f(b)} | {_f(q, 2)} |")
    return lines


def ratio_matrix_lines(doc, rows):
    """With named variants: total goodput of every non-e2e variant divided by that of every
    e2e-kind variant, per point (markdown lines; empty without both kinds)."""
    e2es = [v for v in doc["variants"] if _kind(doc, v) == "e2e"]
    others = [v for v in doc["variants"] if _kind(doc, v) != "e2e"]
    if not e2es or not others:
        return []
    tot = {(r["variant"], r["sweep_value"]): r["total_goodput_mbps"] for r in rows}
    points = list(dict.fromkeys(r["sweep_value"] for r in rows))
    pairs = [(o, e) for o in others for e in e2es]
    lines = ["| point | " + " | ".join(f"{o} / {e}" for o, e in pairs) + " |",
             "|---|" + "---|" * len(pairs)]
    for pt in points:
        cells = []
        for o, e in pairs:
            a, b = tot.get((e, pt)), tot.get((o, pt))
            cells.append(_f(b / a, 2) if a and b is not None else "-")
        lines.append(f"| {'-' if pt is None else pt} | " + " | ".join(cells) + " |")
    return lines


def _nan(values, missing=float("nan")):
    """The values with None (a flow that failed in every repetition, or no spread) replaced by
    `missing`: NaN plots as a gap; error bars pass 0.0 (matplotlib rejects all-NaN error bars)."""
    return [missing if v is None else v for v in values]


def plots(doc, out_dir):
    """Per case: goodput per session against the sweep value (one line per session and variant)
    and total goodput; returns the PNG paths."""
    paths = []
    agg = doc["summary"]
    xlabel = doc.get("sweep_parameter") or "point"
    for case in dict.fromkeys(r["case"] for r in agg):
        rows = [r for r in agg if r["case"] == case]
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
        variants = list(dict.fromkeys(r["variant"] for r in rows))
        named = not set(variants) <= {"e2e", "tunnel"}
        for vi, variant in enumerate(variants):
            vr = [r for r in rows if r["variant"] == variant]
            xs = [_x(r["sweep_value"], i) for i, r in enumerate(vr)]
            style = "-o" if _kind(doc, variant) == "e2e" else "--s"
            nflows = len(vr[0]["flows"])
            for j, n in enumerate(vr[0]["flows"]):
                ax1.errorbar(xs, _nan(r["flows"][n]["goodput_mbps"] for r in vr),
                             yerr=_nan((r["flows"][n]["goodput_sd"] for r in vr), 0.0), fmt=style, capsize=3,
                             color=f"C{(vi * nflows + j) % 10 if named else j}",
                             label=f"{n} {_variant_label(doc, variant)}")
            ax2.errorbar(xs, _nan(r["total_goodput_mbps"] for r in vr),
                         yerr=_nan((r["total_goodput_mbps_sd"] for r in vr), 0.0), fmt=style, capsize=3,
                         label=_variant_label(doc, variant))
        for ax, title in ((ax1, "goodput per session"), (ax2, "total goodput")):
            ax.set_xlabel(xlabel)
            ax.set_ylabel("goodput (Mbit/s)")
            ax.set_title(f"{doc['scenario']} {case}: {title}")
            top = ax.get_ylim()[1]
            ax.set_ylim(0, top * 1.15 if top > 0 else 1)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7)
        fig.tight_layout()
        path = os.path.join(out_dir, f"goodput-{case}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths


def _x(value, i):
    """Plot x of a sweep value (its index when not numeric)."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return i
