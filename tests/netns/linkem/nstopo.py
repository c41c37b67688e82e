"""Test topology for linkem's netns tests: h1 (10.77.0.1) - [linkem in namespace L] - h2
(10.77.0.2), unique namespace names (PID), offloads off, torn down on exit or failure."""
import atexit
import os
import signal
import sys
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "netns-scenarios"))
from runner import linkem_ctl, netns  # noqa: E402

H1, H2 = "10.77.0.1", "10.77.0.2"


class Link:
    """h1 - linkem - h2; a2b is h1 -> h2. Use as a context manager."""

    def __init__(self, linkem, a2b="", b2a="", both="", seed=1, fifo=0):
        """Builds the topology and starts linkem with the given settings (`fifo`: SCHED_FIFO
        priority, for timing tests on a busy machine)."""
        self.ns = netns.Namespaces(f"lkt{os.getpid()}-")
        self.dir = tempfile.mkdtemp(prefix=f"lkt{os.getpid()}-")
        self.sock = os.path.join(self.dir, "linkem.sock")
        atexit.register(self.close)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
        for n in ("h1", "h2", "l"):
            self.ns.create(n)
        self.ns.veth("h1", "e0", "l", "la")
        self.ns.veth("l", "lb", "h2", "e0")
        for n, a in (("h1", H1), ("h2", H2)):
            self.ns.ip(n, "addr", "add", f"{a}/24", "dev", "e0")
            self.ns.exec(n, ["ethtool", "-K", "e0", "tx", "off", "tso", "off", "gso", "off"], check=False)
        self.log = os.path.join(self.dir, "linkem.log")
        self.proc = linkem_ctl.start(self.ns, "l", linkem, "la", "lb",
                                     {"a2b": a2b, "b2a": b2a, "both": both, "fifo": fifo}, seed, self.sock, self.log)
        print(f"linkem seed={seed} a2b='{both} {a2b}' b2a='{both} {b2a}'", flush=True)

    def stats(self):
        """linkem's counters (for context only; tests measure end to end)."""
        return linkem_ctl.stats(self.sock)

    def close(self):
        """Tears down linkem and the namespaces."""
        if self.ns:
            self.ns.teardown()
            os.system(f"rm -rf {self.dir}")
            self.ns = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
