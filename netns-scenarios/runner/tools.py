"""Locating the binaries a run needs (linkem, ncgw, ethtool, iperf3)."""
import glob
import os
import shutil

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def _newest(pattern):
    """The most recently built file matching a glob under the repo, or None."""
    found = [p for p in glob.glob(os.path.join(REPO, pattern)) if os.access(p, os.X_OK)]
    return max(found, key=os.path.getmtime) if found else None


def find(args, need_ncgw):
    """Paths of the tools; raises with a hint when one is missing."""
    t = {"linkem": args.linkem or os.environ.get("LINKEM") or _newest("build*/netns-scenarios/linkem"),
         "ncgw": args.ncgw or os.environ.get("NCGW") or _newest("build*/gateway/ncgw"),
         "ethtool": shutil.which("ethtool") or "/usr/sbin/ethtool",
         "iperf3": shutil.which("iperf3")}
    if not t["linkem"]:
        raise SystemExit("linkem not found: build it (cmake --build BUILD --target linkem) or pass --linkem")
    if need_ncgw and not t["ncgw"]:
        raise SystemExit("ncgw not found: build it (target ncgw) or pass --ncgw, or run --variant e2e")
    if not t["iperf3"]:
        raise SystemExit("iperf3 not installed: run scripts/install-deps.sh")
    return t
