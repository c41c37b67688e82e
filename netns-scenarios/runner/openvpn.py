"""The `openvpn-tcp` variant: every scenario tunnel (gateway pair) is an OpenVPN 2.6 point-to-point
tunnel over TCP instead of ncgw -- a TCP tunnel without coding, the baseline the TCP/NC tunnel is compared with. Same
links and same routes as the `tunnel` variant: a gateway's tunnel routes (host prefixes behind its
peer) point into the OpenVPN TUN device instead of ncgw's.

OpenVPN as in netns-scenarios/bench/tunnel_vs_openvpn.sh: static key, `--cipher none --auth none`
(no crypto), `--proto tcp-server` on the tunnel's `a` gateway and `tcp-client` on `b`, `--tun-mtu`
from the scenario (`openvpn: {tun_mtu: N}`, default 1400), `--mssfix 0` (the hosts' MSS comes from
the scenario's `tcp.mss`). The outer TCP connection uses the gateway namespace's Linux defaults
(SACK, RACK) and its default congestion control, which `outer_cc` sets (a namespace default can
only be one of the init namespace's tcp_allowed_congestion_control, e.g. reno or bbr; OpenVPN has
no per-socket option). The congestion control in effect is read back and recorded."""
import os
import subprocess
import time

DEFAULTS = {"tun_mtu": 1400, "port": 1194, "verb": 3, "tcp_queue_limit": None, "outer_cc": None}
READY = "Initialization Sequence Completed"


def plan(topo_tunnels, settings=None):
    """Pure part: per tunnel index i, the server/client roles, TUN device name `ovpn<i>` and
    p2p addresses 10.98.<i>.1 (a) / 10.98.<i>.2 (b). Returns a list of dicts."""
    s = dict(DEFAULTS)
    s.update(settings or {})
    out = []
    for i, t in enumerate(topo_tunnels):
        out.append({"index": i, "server": t["a"], "client": t["b"], "dev": f"ovpn{i}",
                    "ifconfig": {t["a"]: (f"10.98.{i}.1", f"10.98.{i}.2"),
                                 t["b"]: (f"10.98.{i}.2", f"10.98.{i}.1")},
                    "port": int(s["port"]) + i, "settings": s})
    return out


def args(p, gw, local, remote, key):
    """OpenVPN command line of gateway `gw` in planned tunnel `p` (pure)."""
    s = p["settings"]
    a = ["openvpn", "--dev", p["dev"], "--dev-type", "tun", "--secret", key,
         "--cipher", "none", "--auth", "none", "--tun-mtu", str(s["tun_mtu"]), "--mssfix", "0",
         "--port", str(p["port"]), "--verb", str(s["verb"]), "--ping", "10",
         "--ifconfig", *p["ifconfig"][gw]]
    if s.get("tcp_queue_limit"):
        a += ["--tcp-queue-limit", str(s["tcp_queue_limit"])]
    if gw == p["server"]:
        a += ["--proto", "tcp-server", "--local", local]
    else:
        a += ["--proto", "tcp-client", "--remote", remote, "--connect-retry", "1"]
    return a


def _addr_on_path(topo, a, b):
    """Underlay address of gateway `b` as seen from `a` (same rule as ncgw's peer endpoint)."""
    from . import plan as _plan
    return _plan.endpoint(topo.nodes, topo.links, a, b)


def start(ns, topo, settings, run_dir):
    """Starts both ends of every tunnel, waits for both to report ready, then points each
    gateway's tunnel routes into its OpenVPN device. Returns {gateway: info} for `status`."""
    key = os.path.join(run_dir, "openvpn-static.key")
    subprocess.run(["openvpn", "--genkey", "secret", key], check=True, capture_output=True)
    started = {}
    plans = plan(topo.tunnels, settings)
    outer = plans[0]["settings"]["outer_cc"] if plans else None
    for gw in sorted({t[e] for t in topo.tunnels for e in ("a", "b")}):
        if outer:
            ns.sysctl(gw, {"net.ipv4.tcp_congestion_control": outer})
    for p in plans:
        srv, cli = p["server"], p["client"]
        for gw in (srv, cli):
            local = _addr_on_path(topo, cli, srv)  # the server's address the client dials
            remote = local
            log_path = os.path.join(run_dir, f"openvpn-{gw}-{p['dev']}.log")
            log = open(log_path, "w")
            proc = ns.spawn(gw, args(p, gw, local, remote, key), stdout=log, stderr=log)
            started.setdefault(gw, []).append({"proc": proc, "log": log_path, "dev": p["dev"],
                                               "peer": cli if gw == srv else srv})
            if gw == srv:
                time.sleep(0.3)  # let the server listen before the client dials
    for gw, ends in started.items():
        for e in ends:
            _wait_ready(gw, e)
    for gw, rs in topo.tunnel_routes.items():
        for subnet, peer in rs:
            dev = [e["dev"] for e in started[gw] if e["peer"] == peer][0]
            ns.ip(gw, "route", "replace", subnet, "dev", dev)
    return started


def _wait_ready(gw, e, timeout=20.0):
    """Waits for OpenVPN's 'Initialization Sequence Completed'; raises with its log tail."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        text = open(e["log"]).read()
        if READY in text:
            return
        if e["proc"].poll() is not None:
            raise RuntimeError(f"openvpn {gw} exited: {text[-1500:]}")
        time.sleep(0.1)
    raise RuntimeError(f"openvpn {gw} not ready within {timeout}s: {open(e['log']).read()[-1500:]}")


def status(ns, started):
    """Per gateway: the outer TCP connections' `ss -tin` (cwnd, retransmissions, rtt) at the end
    of the run, in place of `ncgw status`."""
    out = {}
    for gw in started:
        try:
            text = ns.exec(gw, ["ss", "-tin"], capture=True, check=False)
        except Exception as ex:  # status is informative only
            text = f"error: {ex}"
        cc = ns.exec(gw, ["sysctl", "-n", "net.ipv4.tcp_congestion_control"], capture=True,
                     check=False)
        out[gw] = {"openvpn": [e["dev"] for e in started[gw]], "outer_cc": str(cc).strip(),
                   "ss_tin": text}
    return out
