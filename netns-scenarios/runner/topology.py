"""Builds a run's topology in namespaces: nodes, veths (through linkem link namespaces),
addresses, offloads, routes and TCP settings."""
import os

from . import linkem_ctl, plan, tcp_settings


def _derive_seed(seed, index):
    """Seed of link `index` in a run with `seed` (recorded in results)."""
    return (seed * 1000003 + index * 7919 + 1) % (1 << 63)


class Topology:
    """One run's built topology; `ns` owns everything for teardown."""

    def __init__(self, ns, body, tools, run_dir, sock_dir, seed):
        """Plans addresses and routes; `tools` has 'linkem' and 'ethtool' paths; unix sockets
        go to the short `sock_dir` (paths are limited to 108 bytes)."""
        self.ns, self.body, self.tools, self.seed = ns, body, tools, seed
        self.run_dir, self.sock_dir = run_dir, sock_dir
        self.nodes = {n: (v or {}) for n, v in body["nodes"].items()}
        self.links = plan.addressing(body)
        self.tunnels = body.get("tunnels") or []
        self.linkems = {}  # link name -> {"sock", "seed", "proc"}
        self.warnings = []

    def link_name(self, l):
        """Stable name of a link, e.g. 'gw1-gw2'."""
        return l["spec"].get("name", f"{l['a']}-{l['b']}")

    def address(self, node):
        """`node`'s first address (where its flows are sent to)."""
        for l in self.links:
            if l["a"] == node:
                return l["addr_a"]
            if l["b"] == node:
                return l["addr_b"]
        raise ValueError(f"node {node} has no link")

    def build(self, use_tunnel):
        """Creates nodes and links and installs routes (tunnel routes are left to the gateways
        when `use_tunnel`)."""
        for n in self.nodes:
            self.ns.create(n)
            if self.nodes[n]["type"] == "gateway":
                self.ns.sysctl(n, {"net.ipv4.ip_forward": 1, "net.ipv4.conf.all.rp_filter": 0,
                                   "net.ipv4.conf.default.rp_filter": 0})
            else:
                self._host_sysctls(n)
        for l in self.links:
            self._build_link(l)
        static, self.tunnel_routes = plan.routes(self.nodes, self.links,
                                                 self.tunnels if use_tunnel else [])
        for n, rs in static.items():
            attrs = self._route_attrs(n)
            for subnet, via, dev in rs:
                self.ns.ip(n, "route", "replace", subnet, "via", via, "dev", dev, *attrs)
        for l in self.links:  # connected routes get the host's TCP attributes too
            for end in ("a", "b"):
                attrs = self._route_attrs(l[end])
                if attrs:
                    self.ns.ip(l[end], "route", "replace", l["subnet"], "dev", l["if_" + end],
                               "src", l["addr_" + end], *attrs)

    def _host_sysctls(self, node):
        """TCP sysctls of a host. The namespace's default congestion control can only be one of
        the init namespace's tcp_allowed_congestion_control; when refused, the flows' own
        `cc` (iperf3 -C, a per-socket choice open to root) still applies: recorded in warnings."""
        values = tcp_settings.sysctls(tcp_settings.merged(self.body, node))
        cc = values.pop("net.ipv4.tcp_congestion_control", None)
        self.ns.sysctl(node, values)
        if cc and self.ns.exec(node, ["sysctl", "-q", "-w", f"net.ipv4.tcp_congestion_control={cc}"],
                               check=False) != 0:
            self.warnings.append(f"{node}: default congestion control {cc} not allowed in a "
                                 "namespace; flows use iperf3 -C")

    def _route_attrs(self, node):
        """Route attributes (advmss, initcwnd) of a host; none for gateways."""
        if self.nodes[node]["type"] != "host":
            return []
        return tcp_settings.route_attrs(tcp_settings.merged(self.body, node))

    def _build_link(self, l):
        """One link: a direct veth, or two veths into a link namespace running linkem."""
        spec, mtu = l["spec"], int(l["spec"].get("mtu", 1500))
        if spec.get("emulate", True) is False:
            self.ns.veth(l["a"], l["if_a"], l["b"], l["if_b"], mtu)
        else:
            ln = f"L{l['index']}"
            self.ns.create(ln)
            self.ns.veth(l["a"], l["if_a"], ln, "la", mtu)
            self.ns.veth(ln, "lb", l["b"], l["if_b"], mtu)
            self._offloads_off(ln, ["la", "lb"], "gro off lro off")
            self._start_linkem(l, ln)
        for end in ("a", "b"):
            node, dev = l[end], l["if_" + end]
            self.ns.ip(node, "addr", "add", f"{l['addr_' + end]}/{l['prefixlen']}", "dev", dev)
            self._offloads_off(node, [dev], "tx off tso off gso off gro off")

    def _offloads_off(self, node, devs, features):
        """ethtool -K on each device (checksum/segmentation offloads break packet-socket
        forwarding: docs/traps.md)."""
        for d in devs:
            self.ns.exec(node, [self.tools["ethtool"], "-K", d] + features.split(), check=False)

    def _start_linkem(self, l, ln):
        """Starts linkem for link `l` in namespace node `ln`."""
        name = self.link_name(l)
        seed = _derive_seed(self.seed, l["index"])
        sock = os.path.join(self.sock_dir, f"linkem-{name}.sock")
        log = os.path.join(self.run_dir, f"linkem-{name}.log")
        proc = linkem_ctl.start(self.ns, ln, self.tools["linkem"], "la", "lb", l["spec"], seed, sock, log)
        self.linkems[name] = {"sock": sock, "seed": seed, "proc": proc, "log": log,
                              "a2b": f"{l['a']}->{l['b']}"}

    def linkem_stats(self):
        """Counters of every linkem now ({link name: stats})."""
        out = {}
        for name, le in self.linkems.items():
            try:
                out[name] = linkem_ctl.stats(le["sock"])
            except OSError as e:
                out[name] = {"error": str(e)}
            out[name]["direction_a2b"] = le["a2b"]
        return out
