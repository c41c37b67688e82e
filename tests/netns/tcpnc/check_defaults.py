#!/usr/bin/python3
"""netns_tcpnc_defaults: three points of the TCP/NC tunnel with its default configuration against
end-to-end TCP in the same run (netns-scenarios/scenarios/tcpnc-defaults.yaml):
  check_defaults.py OUT_DIR RUNNER SCENARIO --ncgw PATH --linkem PATH
Each point runs the runner once (e2e and tunnel variants back to back), then checks the goodput
ratio (and on the demo link the tunnel's mean RTT) and prints every figure it compared."""
import json
import os
import subprocess
import sys

# (case, variants, compared flow, e2e variant, tunnel variant, least tunnel / e2e goodput, RTT bound,
#  extra runner arguments)
# RTT bound: mean RTT of the tunnel's flow <= 1.5 x base RTT + 10 ms (base: 2 x one-way delay).
POINTS = [
    # Bounds below the goals (0.9 here, 0.95 on lossy20): on this shared 2-core machine the same
    # points measured 0.87-0.95 (clean200) and 0.82-1.4 (lossy20, one download) in clean-clone runs
    # (docs/results/tcpnc-congestion.md); the test guards against regression, it does not claim them.
    ("clean200", ["e2e-bbr", "tcpnc-bbr"], "tcp1", "e2e-bbr", "tcpnc-bbr", 0.80, None, []),
    # Compared on the 10 MiB HTTP download (curl from a web server, sha256 checked by the runner).
    # 30 MiB rather than the file's 10: a 10 MiB download's goodput varies by +-40 % from run to run
    # through the tunnel (start-up of two controllers), a 30 MiB one much less.
    ("lossy20", ["e2e-bbr", "tcpnc-bbr"], "http1", "e2e-bbr", "tcpnc-bbr", 0.70, None, ["--set", "http_size=30MiB"]),
    ("demo10", ["e2e-cubic", "tcpnc-cubic"], "tcp1", "e2e-cubic", "tcpnc-cubic", 1.50, 1.5 * 20 + 10, []),
]


# A point that misses a bound is run once more and must meet every bound in that run. Goodput and
# the mean RTT are wall-clock figures on a machine shared with other jobs: in clean-clone runs the
# demo10 tunnel's mean RTT was 28-33 ms, and once 40.9 (bound 40) with its goodput as usual. A
# regression misses in both runs; both runs' figures are printed.
RETRIES = 1


def flow(run, name):
    """The flow `name` of a run, or {}."""
    return next((f for f in run.get("flows", []) if f.get("name") == name), {})


def check_point(out, runner, scenario, tools, point, attempt=0):
    """Runs one point (results in OUT/CASE, OUT/CASE.again-N for a rerun); returns the list of problems."""
    case, variants, flow_name, e2e, tunnel, least, rtt_bound, extra = point
    d = os.path.join(out, case if attempt == 0 else f"{case}.again-{attempt}")
    cmd = ["/usr/bin/python3", runner, scenario, "--case", case, "--out", d] + tools + extra
    for v in variants:
        cmd += ["--variant", v]
    rc = subprocess.run(cmd).returncode
    runs = {r["variant"]: r for r in json.load(open(os.path.join(d, "results.json")))["runs"]}
    problems = [f"{case}: runner exit code {rc}"] if rc else []
    for v in (e2e, tunnel):
        for f in runs.get(v, {}).get("flows", []):
            if "error" in f:
                problems.append(f"{case}: {v} flow {f['name']}: {f['error']}")
    g = {v: (flow(runs.get(v, {}), flow_name).get("goodput_bps") or 0) / 1e6 for v in (e2e, tunnel)}
    rtt = flow(runs.get(tunnel, {}), flow_name).get("mean_rtt_ms")
    ratio = g[tunnel] / g[e2e] if g[e2e] > 0 else 0.0
    print(f"[tcpnc-defaults] {case} ({flow_name}): {e2e} {g[e2e]:.2f} Mbit/s, {tunnel} {g[tunnel]:.2f} Mbit/s, "
          f"ratio {ratio:.3f} (least {least}), tunnel mean RTT {rtt} ms (bound {rtt_bound})")
    if ratio < least:
        problems.append(f"{case}: tunnel / e2e = {ratio:.3f} < {least}")
    if rtt_bound is not None and (rtt is None or rtt > rtt_bound):
        problems.append(f"{case}: tunnel mean RTT {rtt} ms > {rtt_bound} ms")
    return problems


def main():
    """Exit 0 when every point meets its bounds (a point that misses is run once more, see RETRIES)."""
    out, runner, scenario, tools = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    problems = []
    for point in POINTS:
        missed = check_point(out, runner, scenario, tools, point)
        for attempt in range(RETRIES):
            if not missed:
                break
            print(f"[tcpnc-defaults] {point[0]} missed ({'; '.join(missed)}): running it again "
                  f"({attempt + 1} of {RETRIES})")
            missed = check_point(out, runner, scenario, tools, point, attempt + 1)
        problems += missed
    for p in problems:
        print("FAIL", p)
    print("PASS" if not problems else "FAILED")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
