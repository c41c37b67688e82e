"""Command line of the scenario runner: expands a scenario into runs, runs each in fresh
namespaces (torn down even on failure or Ctrl-C), and writes results, table and plots."""
import argparse
import datetime
import os
import signal
import subprocess
import sys
import tempfile
import time

from . import gateways, metrics, netns, openvpn, report, scenario, tcp_sampler, timeseries, tools
from .topology import Topology
from .traffic import Traffic


def parse_args(argv):
    """Command-line arguments."""
    p = argparse.ArgumentParser(prog="run-scenario", description=__doc__)
    p.add_argument("scenario", help="scenario YAML file")
    p.add_argument("--variant", action="append",
                   help="run only this variant (repeatable; default: the file's `variants`): "
                        "e2e, tunnel, openvpn-tcp or a name the file's `variants` declares")
    p.add_argument("--transport", choices=scenario.TRANSPORTS, help="tunnel transport (overrides the file)")
    p.add_argument("--case", action="append", help="run only this case (repeatable)")
    p.add_argument("--sweep", help="comma-separated values of the swept parameter (overrides the file)")
    p.add_argument("--repetitions", type=int, help="runs per point (overrides the file)")
    p.add_argument("--seed", type=int, help="base seed (run seed = base + repetition)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="override a scenario parameter (repeatable)")
    p.add_argument("--out", help="output directory (default netns-scenarios/results/<name>-<time>)")
    p.add_argument("--linkem", help="linkem binary (default: newest build*/netns-scenarios/linkem)")
    p.add_argument("--ncgw", help="ncgw binary (default: newest build*/gateway/ncgw)")
    p.add_argument("--stop-on-error", action="store_true", help="stop at the first failed run")
    p.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    return p.parse_args(argv)


def _value(text):
    """A --set/--sweep value as int, float or string."""
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def overrides(args):
    """Scenario overrides from the command line."""
    return {"variants": args.variant, "cases": args.case, "repetitions": args.repetitions,
            "seed": args.seed,
            "sweep_values": [_value(v) for v in args.sweep.split(",")] if args.sweep else None,
            "set": {k: _value(v) for k, v in (s.split("=", 1) for s in args.set)}}


def _raise_interrupt(signum, frame):
    """SIGTERM/SIGHUP handler: unwind like Ctrl-C so every `finally` tears down."""
    raise KeyboardInterrupt(f"signal {signum}")


def run_one(run, idx, total, sc, transport, tl, out_dir, sock_dir):
    """Builds, runs and tears down one run; returns its result dict."""
    kind = run.get("kind", run["variant"])
    vlabel = f"tunnel({transport})" if kind == "tunnel" else run["variant"]
    if kind == "tunnel" and run["variant"] != "tunnel":
        vlabel = f"{run['variant']}({transport})"
    label = (f"[{idx + 1}/{total}] {run['case']} {vlabel} "
             + (f"{sc['sweep']['parameter']}={run['sweep_value']} " if run["sweep_value"] is not None else "")
             + f"rep {run['rep'] + 1}")
    run_dir = os.path.join(out_dir, f"run-{idx + 1:04d}")
    os.makedirs(run_dir, exist_ok=True)
    ns = netns.Namespaces(f"ncs{os.getpid()}r{idx}-")
    result = {k: run[k] for k in ("case", "variant", "sweep_value", "rep", "seed", "params")}
    result.update({"kind": kind, "transport": transport if kind == "tunnel" else
                   ("openvpn-tcp" if kind == "openvpn-tcp" else None), "dir": run_dir})
    t0 = time.time()
    try:
        body = run["body"]
        topo = Topology(ns, body, tl, run_dir, sock_dir, run["seed"])
        topo.build(use_tunnel=kind in ("tunnel", "openvpn-tcp"))
        result["links"] = [{"name": topo.link_name(l), "a": l["a"], "b": l["b"], "subnet": l["subnet"],
                            "addr_a": l["addr_a"], "addr_b": l["addr_b"]} for l in topo.links]
        result["warnings"] = topo.warnings
        result["linkem_seeds"] = {n: le["seed"] for n, le in topo.linkems.items()}
        gws, ovpn = {}, {}
        if kind == "openvpn-tcp":
            ovpn = openvpn.start(ns, topo, body.get("openvpn") or {}, run_dir)
        if kind == "tunnel":
            cfgs = gateways.configs(topo, transport, body.get("gateway") or {}, sock_dir)
            gws = gateways.start(ns, tl["ncgw"], cfgs, run_dir)
        traffic = Traffic(ns, topo, body["flows"], run_dir, body.get("duration") or 10, label,
                          body.get("events"))
        sampler = tcp = None
        if gws and body.get("status_samples"):
            sampler = gateways.StatusSampler(tl["ncgw"], gws, run_dir, body["status_samples"]).start()
        if body.get("tcp_samples"):
            tcp = tcp_sampler.TcpSampler(ns, topo, traffic.flows, run_dir, body["tcp_samples"]).start()
        try:
            traffic.run()
        finally:
            if sampler:
                sampler.stop()
            if tcp:
                tcp.stop()
        result["events"] = traffic.applied
        result["flows"] = traffic.results()
        if tcp:
            limits = tcp.limits()
            for f in result["flows"]:
                if f["name"] in limits:
                    f["sender_limits"] = limits[f["name"]]
        result["linkem"] = topo.linkem_stats()
        result["gateways"] = {g: gateways.status(tl["ncgw"], s["socket"]) for g, s in gws.items()}
        if ovpn:
            result["gateways"] = openvpn.status(ns, ovpn)
        result["metrics"] = metrics.run_metrics(result["flows"])
        if body.get("timeseries"):
            ts = body["timeseries"]
            result["timeseries"] = timeseries.run_series(result["flows"])
            result["window"] = timeseries.window_goals(result["flows"], result["timeseries"],
                                                       float(ts["capacity_mbit"]), float(ts.get("settle_s", 0)))
    except Exception as e:
        result["error"] = f"{type(e).__name__}: {e}"
        sys.stderr.write(f"\n{label}: FAILED: {result['error']}\n")
    finally:
        ns.teardown()
    result["wall_s"] = round(time.time() - t0, 1)
    return result


def main(argv=None):
    """Entry point; returns the exit code (1 if any run failed)."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, _raise_interrupt)
    signal.signal(signal.SIGHUP, _raise_interrupt)
    sc = scenario.load(args.scenario)
    transport = args.transport or sc.get("transport", "plain")
    runs = scenario.expand(sc, overrides(args))
    variants = list(dict.fromkeys(r["variant"] for r in runs))
    kinds = {r["variant"]: r.get("kind", r["variant"]) for r in runs}
    tl = tools.find(args, need_ncgw="tunnel" in kinds.values())
    started = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out_dir = args.out or os.path.join(tools.REPO, "netns-scenarios", "results", f"{sc['name']}-{started}")
    os.makedirs(out_dir, exist_ok=True)
    sock_dir = tempfile.mkdtemp(prefix=f"ncs{os.getpid()}-")
    doc = {"scenario": sc["name"], "file": os.path.abspath(args.scenario), "started": started,
           "command": sys.argv, "git": _git_rev(), "transport": transport, "variants": variants, "variant_kinds": kinds,
           "sweep_parameter": (sc.get("sweep") or {}).get("parameter"),
           "repetitions": runs[-1]["rep"] + 1 if runs else 0,
           "seed": runs[0]["seed"] if runs else None, "tools": tl, "runs": [], "summary": []}
    print(f"{sc['name']}: {len(runs)} runs, variants {variants}"
          + (f", tunnel transport: {transport}" if "tunnel" in kinds.values() else "") + f"; output {out_dir}",
          flush=True)
    failed = 0
    try:
        for i, run in enumerate(runs):
            res = run_one(run, i, len(runs), sc, transport, tl, out_dir, sock_dir)
            doc["runs"].append(res)
            failed += "error" in res
            _write(doc, out_dir, plots=False)
            if "error" in res and args.stop_on_error:
                break
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted: namespaces torn down, writing partial results\n")
        failed += 1
    finally:
        _write(doc, out_dir, plots=not args.no_plots)
        subprocess.run(["rm", "-rf", sock_dir])
    print(open(os.path.join(out_dir, "results.md")).read())
    print(f"results: {out_dir}/results.json, results.md" + ("" if args.no_plots else ", goodput-*.png"))
    return 1 if failed else 0


def _write(doc, out_dir, plots):
    """Writes results.json, results.md and (when `plots`) the PNGs from the runs so far."""
    ok = [r for r in doc["runs"] if "metrics" in r]
    doc["summary"] = metrics.aggregate(ok)
    report.write_json(os.path.join(out_dir, "results.json"), doc)
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write(report.markdown(doc) if doc["summary"] else f"# {doc['scenario']}: no successful runs\n")
    if plots and doc["summary"]:
        doc["plots"] = report.plots(doc, out_dir)
        if any(r.get("timeseries") for r in ok):
            doc["plots"] += report.timeseries_plots(doc, out_dir)
        report.write_json(os.path.join(out_dir, "results.json"), doc)


def _git_rev():
    """The repo's HEAD commit (for the record)."""
    r = subprocess.run(["git", "-C", tools.REPO, "rev-parse", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip()
