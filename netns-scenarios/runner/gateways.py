"""Gateway configs generated from the scenario (schema: config/config.h), starting `ncgw run`
in the gateways' namespaces and reading `ncgw status --json`."""
import json
import os
import subprocess
import time

import yaml

from . import periodic, plan


def configs(topo, transport, settings, sock_dir):
    """One ncgw config dict per gateway that has a tunnel: TUN address 10.99.0.<i>/24, a peer per
    tunnel (endpoint: the peer's underlay address, `transport` with its `settings`), a route
    per host prefix behind the peer, and `settings["fudp"]` as the top-level `fudp` block."""
    gws = sorted({t[e] for t in topo.tunnels for e in ("a", "b")})
    out = {}
    for i, g in enumerate(gws):
        peers = []
        for t in topo.tunnels:
            if g not in (t["a"], t["b"]):
                continue
            other = t["b"] if t["a"] == g else t["a"]
            peer = {"name": other, "endpoint": plan.endpoint(topo.nodes, topo.links, g, other),
                    "transport": transport}
            if settings.get("security") == "none":
                peer["security"] = "none"
            elif settings.get("rekey_after_s"):
                peer["rekey_after_s"] = settings["rekey_after_s"]
            tset = dict(settings.get(transport) or {})
            tset.update(t.get(transport) or {})
            if tset:
                peer[transport] = tset
            peers.append(peer)
        out[g] = {
            "gateway": {"name": g, "control_socket": os.path.join(sock_dir, f"ncgw-{g}.sock")},
            "tun": {"name": "ncgw0", "addresses": [f"10.99.0.{i + 1}/24"]},
            "listen": {"address": "0.0.0.0"},
            "peers": peers,
            "routes": [{"prefix": p, "via": v} for p, v in topo.tunnel_routes.get(g, [])],
            "logging": {"level": settings.get("log_level", "info")},
        }
        if settings.get("fudp"):  # FUDP for every peer of the gateway (docs/fudp.md)
            out[g]["fudp"] = dict(settings["fudp"])
    return out


def add_keys(ncgw, cfgs, run_dir):
    """Gives every gateway a fresh key pair (`ncgw genkey`, file mode 600 in run_dir) and every
    secured peer entry the other gateway's public key."""
    public = {}
    for g, cfg in cfgs.items():
        private = subprocess.run([ncgw, "genkey"], capture_output=True, text=True, check=True).stdout
        path = os.path.join(run_dir, f"ncgw-{g}.key")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.write(fd, private.encode())
        os.close(fd)
        cfg["gateway"]["private_key_file"] = path
        public[g] = subprocess.run([ncgw, "pubkey"], input=private, capture_output=True, text=True,
                                   check=True).stdout.strip()
    for cfg in cfgs.values():
        for peer in cfg["peers"]:
            if peer.get("security") != "none":
                peer["public_key"] = public[peer["name"]]


def start(ns, ncgw, cfgs, run_dir):
    """Writes each config (with fresh keys), checks it with `ncgw check-config`, starts `ncgw run`
    and waits for its control socket. Returns {gateway: {"proc", "config", "socket", "log"}}."""
    add_keys(ncgw, cfgs, run_dir)
    started = {}
    for g, cfg in cfgs.items():
        path = os.path.join(run_dir, f"ncgw-{g}.yaml")
        with open(path, "w") as f:
            yaml.safe_dump(cfg, f, sort_keys=False)
        chk = subprocess.run([ncgw, "check-config", path], capture_output=True, text=True)
        if chk.returncode != 0:
            raise RuntimeError(f"ncgw check-config {path}: {chk.stderr.strip() or chk.stdout.strip()}")
        log_path = os.path.join(run_dir, f"ncgw-{g}.log")
        log = open(log_path, "w")
        proc = ns.spawn(g, [ncgw, "run", "--config", path], stdout=log, stderr=log)
        started[g] = {"proc": proc, "config": path, "socket": cfg["gateway"]["control_socket"],
                      "log": log_path}
    for g, s in started.items():
        _wait_up(ncgw, g, s)
    return started


def _wait_up(ncgw, g, s, timeout=8.0):
    """Waits until a gateway answers `ncgw status`; raises with its log when it died."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if s["proc"].poll() is not None:
            raise RuntimeError(f"ncgw {g} exited: {open(s['log']).read()[-2000:]}")
        if os.path.exists(s["socket"]) and status(ncgw, s["socket"]) is not None:
            return
        time.sleep(0.1)
    raise RuntimeError(f"ncgw {g} did not answer status within {timeout}s (see {s['log']})")


def status(ncgw, sock):
    """`ncgw status --json` of one gateway as a dict, or None when it does not answer."""
    r = subprocess.run([ncgw, "status", "--socket", sock, "--json"], capture_output=True,
                       text=True, timeout=10)
    if r.returncode != 0:
        return None
    try:
        return json.loads(r.stdout)
    except json.JSONDecodeError:
        return {"raw": r.stdout}


class StatusSampler(periodic.PeriodicSampler):
    """Writes each gateway's `ncgw status --json` every `interval` seconds to
    `<run_dir>/<gateway>.status.jsonl` while a run's traffic flows (one JSON object per line, with
    `t_s`, seconds since start()): the tunnel's own state over time, beside the end hosts'."""

    def __init__(self, ncgw, started, run_dir, interval):
        super().__init__(interval)
        self.ncgw, self.started = ncgw, started
        self.files = {g: open(os.path.join(run_dir, f"{g}.status.jsonl"), "w") for g in started}

    def sample(self, t):
        for g, s in self.started.items():
            st = status(self.ncgw, s["socket"])
            if st is not None:
                self.files[g].write(json.dumps({"t_s": t, "status": st}) + "\n")

    def finish(self):
        for f in self.files.values():
            f.close()
