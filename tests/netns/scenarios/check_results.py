#!/usr/bin/python3
"""Runs a scenario (`check_results.py OUT_DIR -- RUNNER ARGS...`) into OUT_DIR and checks its
results: every run succeeded, every session has goodput > 0, the table and plots exist, and no
namespace of the run is left behind."""
import json
import os
import shutil
import subprocess
import sys


def main():
    """Exit 0 when the run and its results pass the checks."""
    sep = sys.argv.index("--")
    out, cmd = sys.argv[1], sys.argv[sep + 1:]
    shutil.rmtree(out, ignore_errors=True)
    r = subprocess.Popen(["/usr/bin/python3"] + cmd + ["--out", out])
    r.wait()
    doc = json.load(open(os.path.join(out, "results.json")))
    problems = []
    if r.returncode != 0:
        problems.append(f"runner exit code {r.returncode}")
    for run in doc["runs"]:
        if "error" in run:
            problems.append(f"run {run['dir']}: {run['error']}")
            continue
        for f in run["flows"]:
            if f["type"] != "ping" and not (f.get("goodput_bps") or 0) > 0:
                problems.append(f"run {run['dir']}: flow {f['name']} has no goodput ({f.get('error')})")
        for name, st in run["linkem"].items():
            if "error" in st or st["a2b"]["frames_out"] == 0:
                problems.append(f"linkem {name}: {st.get('error', 'forwarded nothing')}")
    if not os.path.exists(os.path.join(out, "results.md")) or not doc.get("plots"):
        problems.append("table or plots missing")
    left = [l.split()[0] for l in subprocess.run(["ip", "netns", "list"], capture_output=True,
                                                 text=True).stdout.splitlines()
            if l.startswith(f"ncs{r.pid}r")]
    if left:
        problems.append(f"namespaces left behind: {left}")
    for p in problems:
        print("FAIL", p)
    print("PASS" if not problems else "FAILED", f"{len(doc['runs'])} runs checked")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
