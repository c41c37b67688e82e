"""Network namespaces, veth pairs and background processes of one run, with guaranteed teardown."""
import os
import signal
import subprocess
import time


def sh(args, check=True, capture=False, timeout=30):
    """Runs a command (list of str); raises with its stderr when `check` and it fails."""
    r = subprocess.run(args, stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {r.stderr.strip()}")
    return r.stdout if capture else r.returncode


class Namespaces:
    """Owns every namespace and process it creates; `teardown()` removes all of them."""

    def __init__(self, prefix):
        """`prefix` makes every namespace name unique to this run (it includes the PID)."""
        self.prefix = prefix
        self.names = []
        self.procs = []

    def ns(self, node):
        """Full namespace name of `node`."""
        return self.prefix + node

    def create(self, node):
        """Creates the namespace of `node` with loopback up and IPv6 off (no chatter)."""
        name = self.ns(node)
        sh(["ip", "netns", "add", name])
        self.names.append(name)
        sh(["ip", "-n", name, "link", "set", "dev", "lo", "up"])
        self.sysctl(node, {"net.ipv6.conf.all.disable_ipv6": 1,
                           "net.ipv6.conf.default.disable_ipv6": 1})

    def sysctl(self, node, values):
        """Sets sysctls (dict) inside `node`'s namespace."""
        args = [f"{k}={v}" for k, v in values.items()]
        sh(["ip", "netns", "exec", self.ns(node), "sysctl", "-q", "-w"] + args)

    def veth(self, node_a, if_a, node_b, if_b, mtu=1500):
        """Creates a veth pair with one end in each namespace, both up."""
        sh(["ip", "link", "add", "name", if_a, "netns", self.ns(node_a), "mtu", str(mtu), "type", "veth",
            "peer", "name", if_b, "netns", self.ns(node_b), "mtu", str(mtu)])
        sh(["ip", "-n", self.ns(node_a), "link", "set", "dev", if_a, "up"])
        sh(["ip", "-n", self.ns(node_b), "link", "set", "dev", if_b, "up"])

    def ip(self, node, *args):
        """Runs `ip ARGS` inside `node`'s namespace."""
        return sh(["ip", "-n", self.ns(node)] + [str(a) for a in args])

    def exec(self, node, args, **kw):
        """Runs a command inside `node`'s namespace and waits for it."""
        return sh(["ip", "netns", "exec", self.ns(node)] + [str(a) for a in args], **kw)

    def spawn(self, node, args, stdout=None, stderr=None):
        """Starts a background process in `node`'s namespace (its own process group)."""
        p = subprocess.Popen(["ip", "netns", "exec", self.ns(node)] + [str(a) for a in args],
                             stdout=stdout or subprocess.DEVNULL, stderr=stderr or subprocess.DEVNULL,
                             start_new_session=True)
        self.procs.append(p)
        return p

    def stop(self, p, sig=signal.SIGTERM, grace=3.0):
        """Stops one spawned process group: `sig`, then SIGKILL after `grace` seconds."""
        if p.poll() is None:
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                pass
            try:
                p.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait(timeout=5)

    def teardown(self):
        """Kills every spawned process and deletes every namespace of this prefix."""
        for p in reversed(self.procs):
            try:
                self.stop(p, grace=2.0)
            except Exception:  # keep tearing down
                pass
        self.procs = []
        listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        names = set(self.names)
        names.update(l.split()[0] for l in listed.splitlines()
                     if l.split() and l.split()[0].startswith(self.prefix))
        for n in names:
            subprocess.run(["ip", "netns", "del", n], capture_output=True)
        self.names = []
        time.sleep(0.1)
