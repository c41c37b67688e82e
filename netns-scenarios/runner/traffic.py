"""Traffic of a run: iperf3 TCP/UDP flows, HTTP downloads and pings with start times, progress,
and parsing."""
import hashlib
import json
import math
import os
import re
import shlex
import statistics
import sys
import time

from . import linkem_ctl

_HTTP_SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "http_server.py")
_CURL_FORMAT = "%{time_pretransfer} %{time_starttransfer} %{time_total} %{size_download} %{http_code}"
_SIZE_UNITS = {"": 1, "k": 1000, "m": 10**6, "g": 10**9, "kib": 1024, "mib": 1024**2, "gib": 1024**3}


def parse_size(text):
    """Bytes of a size such as 10MiB, 50mib, 2M or 1000 (k/m/g decimal, KiB/MiB/GiB binary)."""
    m = re.fullmatch(r"\s*([\d.]+)\s*([kmgKMG](?:iB|ib)?|)\s*", str(text))
    if not m:
        raise ValueError(f"bad size {text!r}")
    return int(float(m.group(1)) * _SIZE_UNITS[m.group(2).lower()])


def write_random_file(path, size):
    """Writes `size` random bytes to `path`; returns their sha256 (hex)."""
    h = hashlib.sha256()
    with open(path, "wb") as out:
        left = size
        while left > 0:
            chunk = os.urandom(min(left, 1 << 20))
            h.update(chunk)
            out.write(chunk)
            left -= len(chunk)
    return h.hexdigest()


def sha256_of(path):
    """sha256 (hex) of a file."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def parse_http(curl_out, size, sent_sha, got_sha, server_stats):
    """Result of an http flow from curl's -w line: goodput = bytes / (time_total - time_pretransfer)
    (the transfer, from the request on; connection set-up excluded), the sender's mean smoothed RTT
    from the server's TCP_INFO samples, and whether the file arrived intact."""
    pre, first, total, got, code = curl_out.split()[:5]
    seconds = float(total) - float(pre)
    r = {"bytes_received": int(float(got)), "seconds": seconds, "http_code": int(code),
         "time_to_first_byte": float(first) - float(pre), "size": size, "sha256_ok": sent_sha == got_sha}
    if int(code) != 200 or int(float(got)) != size or sent_sha != got_sha:
        raise RuntimeError(f"download incomplete or corrupt: HTTP {code}, {got} of {size} bytes, "
                           f"sha256 {'equal' if sent_sha == got_sha else 'differs'}")
    r["goodput_bps"] = 8 * size / seconds if seconds > 0 else None
    return _with_server_stats(r, server_stats)


def _with_server_stats(r, server_stats):
    """`r` plus the web server's figures: the sender's mean and largest smoothed RTT, and its
    congestion control."""
    samples = (server_stats or {}).get("rtt_samples_ms") or []
    if samples:
        r["mean_rtt_ms"] = statistics.mean(samples)
        r["max_rtt_ms"] = max(samples)
    r["congestion"] = (server_stats or {}).get("cc")
    return r


def parse_http_series(lines, repeat, size, sent_sha, got_shas, server_stats):
    """Result of an http flow of `repeat` downloads one after another: each must be complete and
    intact; goodput = all bytes / the sum of the transfers' times; completion times (connection
    set-up included, what a user waits for) as a list, median and 95th percentile in ms."""
    lines = [x for x in lines if x.strip()]
    if len(lines) != repeat:
        raise RuntimeError(f"{len(lines)} of {repeat} downloads finished")
    each = [parse_http(line, size, sent_sha, sha, None) for line, sha in zip(lines, got_shas)]
    fct = [1000 * float(line.split()[2]) for line in lines]
    seconds = sum(r["seconds"] for r in each)
    r = {"downloads": repeat, "bytes_received": size * repeat, "seconds": seconds, "size": size,
         "sha256_ok": True, "goodput_bps": 8 * size * repeat / seconds if seconds > 0 else None,
         "completion_ms": [round(x, 1) for x in fct], "completion_median_ms": statistics.median(fct),
         "completion_p95_ms": _percentile(fct, 0.95),
         "time_to_first_byte_median_ms": 1000 * statistics.median(r["time_to_first_byte"] for r in each)}
    return _with_server_stats(r, server_stats)


def _percentile(xs, q):
    """The q-quantile of xs (nearest rank)."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))]


_PING_TIME = re.compile(r"icmp_seq=(\d+) .*time=([\d.]+) ms")


def _iperf_client_args(f, addr, port):
    """iperf3 client arguments of a flow."""
    # --get-server-output: the receiver's per-second intervals come back in the client's JSON
    # (server_output_json), so goodput and time series never depend on the server's own file.
    a = ["iperf3", "-c", addr, "-p", port, "-t", f["duration"], "--json", "--get-server-output"]
    if f.get("type", "tcp") == "udp":
        a += ["-u", "-b", f.get("bitrate", "1M"), "-l", f.get("length", 1200)]
    else:
        if f.get("cc"):
            a += ["-C", f["cc"]]
        if f.get("mss"):
            a += ["-M", f["mss"]]
    if f.get("window"):
        a += ["-w", f["window"]]
    if f.get("omit"):
        a += ["-O", f["omit"]]
    return [str(x) for x in a]


class Traffic:
    """Starts, watches and collects every flow of one run."""

    def __init__(self, ns, topo, flows, run_dir, default_duration, label, events=None):
        """`flows` are the scenario's flow dicts; `events` change link settings at times after
        the traffic starts ({at, link, target, set}); `label` prefixes progress lines."""
        self.ns, self.topo, self.run_dir, self.label = ns, topo, run_dir, label
        self.events = sorted(events or [], key=lambda e: float(e["at"]))
        self.applied = []
        self.flows = []
        for i, f in enumerate(flows):
            f = dict(f)
            f.setdefault("type", "tcp")
            f.setdefault("start", 0)
            f.setdefault("duration", default_duration if f["type"] != "http" else f.get("timeout", 120))
            f.setdefault("port", 5201 + i)
            self.flows.append(f)
        self.procs = {}

    def _path(self, f, what):
        """Output file of a flow."""
        return os.path.join(self.run_dir, f"{f['name']}.{what}")

    def _start_servers(self):
        """Starts one-shot iperf3 servers in the sinks' namespaces, and for http flows a web server
        on the sending host (`from`) with a file of random bytes."""
        for f in self.flows:
            if f["type"] == "ping":
                continue
            if f["type"] == "http":
                self._start_http_server(f)
                continue
            out = open(self._path(f, "server.json"), "w")
            p = self.ns.spawn(f["to"], ["iperf3", "-s", "-1", "-p", f["port"], "--json"],
                              stdout=out, stderr=out)
            self.procs[f["name"] + ":server"] = p
        time.sleep(0.5)

    def _start_http_server(self, f):
        """Web server for an http flow: serves `size` random bytes from the sender (`from`)."""
        d = self._path(f, "www")
        os.makedirs(d, exist_ok=True)
        f["_size"] = parse_size(f.get("size", "10MiB"))
        f["_sha"] = write_random_file(os.path.join(d, "file"), f["_size"])
        args = ["/usr/bin/python3", _HTTP_SERVER, "--dir", d, "--port", f["port"],
                "--stats", self._path(f, "server.json")]
        if f.get("cc"):
            args += ["--cc", f["cc"]]
        err = open(self._path(f, "server.err"), "w")
        self.procs[f["name"] + ":server"] = self.ns.spawn(f["from"], args, stderr=err)

    def _start_flow(self, f):
        """Starts a flow's client (iperf3, curl or ping)."""
        addr = self.topo.address(f["to"])
        out = open(self._path(f, "out"), "w")
        err = open(self._path(f, "err"), "w")
        if f["type"] == "http":
            args = self._curl_args(f)
        elif f["type"] == "ping":
            args = ["ping", "-n", "-i", f.get("interval", 0.2), "-w", f["duration"], addr]
            if f.get("count"):
                args[1:1] = ["-c", f["count"]]
        else:
            args = _iperf_client_args(f, addr, f["port"])
        client = f["to"] if f["type"] == "http" else f["from"]  # curl downloads on the receiver
        f["_started_at"] = round(time.time() - self.t0, 3)
        self.procs[f["name"]] = self.ns.spawn(client, args, stdout=out, stderr=err)

    def _curl_args(self, f):
        """The client of an http flow: one curl, or with `repeat: N` a shell loop of N curls one
        after another, each a new TCP connection (short transfers as a browser makes them); every
        download is kept under its own name until it is checked."""
        url = f"http://{self.topo.address(f['from'])}:{f['port']}/file"
        curl = ["curl", "-sS", "--max-time", str(f["duration"]), "-w", _CURL_FORMAT + "\\n", "-o"]
        repeat = int(f.get("repeat", 1))
        if repeat == 1:
            return curl + [self._path(f, "download"), url]
        loop = (f"for i in $(seq {repeat}); do {shlex.join(curl)} {shlex.quote(self._path(f, 'download'))}.$i "
                f"{shlex.quote(url)} || exit 1; done")
        return ["sh", "-c", loop]

    def run(self):
        """Runs every flow at its start time; prints progress; waits for all to finish."""
        self._start_servers()
        pending = sorted(self.flows, key=lambda f: float(f["start"]))
        end = max(float(f["start"]) + float(f["duration"]) for f in self.flows)
        t0, last = time.time(), 0.0
        self.t0 = t0
        while True:
            t = time.time() - t0
            while pending and float(pending[0]["start"]) <= t:
                self._start_flow(pending.pop(0))
            while self.events and float(self.events[0]["at"]) <= t:
                self._apply_event(self.events.pop(0), t)
            clients = [p for k, p in self.procs.items() if not k.endswith(":server")]
            self._note_exits(t)
            if not pending and all(p.poll() is not None for p in clients):
                break
            if t > end + 20:
                sys.stderr.write(f"\n{self.label}: flows overran by 20 s, stopping them\n")
                break
            if t - last >= 1.0:
                sys.stderr.write(f"\r{self.label}: t={t:5.1f}/{end:.0f}s ")
                sys.stderr.flush()
                last = t
            time.sleep(0.05)
        sys.stderr.write(f"\r{self.label}: done in {time.time() - t0:.1f}s{' ' * 10}\n")
        for k, p in self.procs.items():
            self.ns.stop(p, grace=3.0)

    def _note_exits(self, t):
        """Records when each flow's client exited (it anchors the receiver's series in time)."""
        for f in self.flows:
            p = self.procs.get(f["name"])
            if p is not None and "_exited_at" not in f and p.poll() is not None:
                f["_exited_at"] = round(t, 3)

    def _apply_event(self, e, t):
        """Changes a running linkem's settings (time-varying links)."""
        le = self.topo.linkems[e["link"]]
        linkem_ctl.set_direction(le["sock"], e.get("target", "both"), e["set"])
        self.applied.append({"at": round(t, 3), "link": e["link"], "target": e.get("target", "both"),
                             "set": e["set"]})
        sys.stderr.write(f"\n{self.label}: t={t:.1f}s {e['link']} {e.get('target', 'both')}: {e['set']}\n")

    def results(self):
        """Per-flow results parsed from iperf3 JSON and ping output."""
        return [self._result(f) for f in self.flows]

    def _result(self, f):
        """One flow's result dict."""
        r = {"name": f["name"], "type": f["type"], "from": f["from"], "to": f["to"],
             "start": f["start"], "duration": f["duration"], "started_at": f.get("_started_at")}
        if f["type"] == "udp":
            r["bitrate"] = f.get("bitrate", "1M")
        if f["type"] == "ping":
            r["interval"] = float(f.get("interval", 0.2))
        try:
            if f["type"] == "ping":
                r.update(parse_ping(open(self._path(f, "out")).read()))
            elif f["type"] == "http":
                r.update(self._http_result(f))
            else:
                client = _load_json(self._path(f, "out"))
                # TCP goodput comes from the client's end.sum_received (the receiver's byte count as
                # the server reported it back); only UDP needs the server's own JSON. An empty server
                # file (iperf3 -1 servers sometimes exit before writing it) must not fail a TCP flow.
                server = _load_json(self._path(f, "server.json")) if f["type"] == "udp" else None
                r.update(parse_iperf(client, server, f["type"]))
                if r.get("series") and f.get("_started_at") is not None:
                    r["test_start"] = test_start(f, client)
                    r["series"] = [[round(a + r["test_start"], 3), round(b + r["test_start"], 3), v]
                                   for a, b, v in r["series"]]
        except Exception as e:  # a failed flow is a result, not a crash of the run
            r["error"] = f"{type(e).__name__}: {e}"
            errtext = open(self._path(f, "err")).read().strip() if os.path.exists(self._path(f, "err")) else ""
            if errtext:
                r["error"] += f" ({errtext[-300:]})"
        return r


    def _http_result(self, f):
        """An http flow's result; the served and downloaded files are removed (they are large)."""
        repeat = int(f.get("repeat", 1))
        downloads = ([self._path(f, "download")] if repeat == 1 else
                     [f"{self._path(f, 'download')}.{i}" for i in range(1, repeat + 1)])
        try:
            got = [sha256_of(d) if os.path.exists(d) else None for d in downloads]
            stats = _load_json(self._path(f, "server.json")) if os.path.exists(self._path(f, "server.json")) else None
            lines = open(self._path(f, "out")).read().split("\n")
            if repeat == 1:
                return parse_http(lines[0], f["_size"], f["_sha"], got[0], stats)
            return parse_http_series(lines, repeat, f["_size"], f["_sha"], got, stats)
        finally:
            for path in downloads + [os.path.join(self._path(f, "www"), "file")]:
                if os.path.exists(path):
                    os.remove(path)


def _load_json(path):
    """JSON content of an iperf3 output file."""
    with open(path) as fh:
        return json.loads(fh.read())


def test_start(f, client):
    """When the iperf3 test itself started on the run's clock: the client's exit minus the test's
    length (a client starved of its control connection starts its test late, and its series are
    relative to that), never before the client was started."""
    start = f["_started_at"]
    summary = client.get("end", {}).get("sum_sent") or client.get("end", {}).get("sum") or {}
    if f.get("_exited_at") is not None and summary.get("end"):
        start = max(start, f["_exited_at"] - summary["end"])
    return round(start, 3)


def receiver_series(client):
    """[[start s, end s, bit/s], ...] of the receiver's intervals (times from the client's start),
    from the server output the client fetched with --get-server-output; [] without it."""
    srv = client.get("server_output_json") or {}
    return [[i["sum"]["start"], i["sum"]["end"], i["sum"]["bits_per_second"]]
            for i in srv.get("intervals", []) if not i["sum"].get("omitted")]


def parse_udp_receiver(client):
    """UDP goodput and losses from the receiver's own intervals (iperf3 3.12's server writes
    bytes 0 in its end.sum, so the intervals are summed); None without server output."""
    srv = client.get("server_output_json") or {}
    ivs = [i["sum"] for i in srv.get("intervals", [])]
    if not ivs:
        return None
    got = sum(i["bytes"] for i in ivs)
    seconds = ivs[-1]["end"] - ivs[0]["start"]
    lost = sum(i.get("lost_packets", 0) for i in ivs)
    total = sum(i.get("packets", 0) for i in ivs)
    return {"goodput_bps": 8 * got / seconds if seconds > 0 else None, "bytes_received": got,
            "datagrams_sent": client["end"]["sum"]["packets"], "datagrams_received": total - lost,
            "datagrams_lost": lost, "lost_percent": 100.0 * lost / total if total else None,
            "jitter_ms": srv["end"]["sum"].get("jitter_ms")}


def parse_iperf(client, server, kind):
    """Goodput and details from iperf3 client/server JSON (receiver-side byte counts), and the
    receiver's per-second series when the client fetched it."""
    if "error" in client:
        raise RuntimeError(f"iperf3: {client['error']}")
    out = _parse_iperf_totals(client, server, kind)
    out["series"] = receiver_series(client)
    return out


def _parse_iperf_totals(client, server, kind):
    """parse_iperf without the series."""
    end = client["end"]
    if kind == "udp" and client.get("server_output_json"):
        return parse_udp_receiver(client)
    if kind == "udp":
        srv = server["end"]["sum"]
        return {"goodput_bps": srv["bits_per_second"] * (1 - srv["lost_percent"] / 100.0),
                "datagrams_sent": end["sum"]["packets"], "datagrams_received":
                srv["packets"] - srv["lost_packets"], "datagrams_lost": srv["lost_packets"],
                "lost_percent": srv["lost_percent"], "jitter_ms": srv["jitter_ms"]}
    rx = end["sum_received"]
    sender = end["streams"][0]["sender"]
    return {"goodput_bps": rx["bits_per_second"], "bytes_received": rx["bytes"],
            "seconds": rx["seconds"], "retransmits": end["sum_sent"].get("retransmits"),
            "mean_rtt_ms": sender.get("mean_rtt", 0) / 1000.0 if sender.get("mean_rtt") else None,
            "min_rtt_ms": sender.get("min_rtt", 0) / 1000.0 if sender.get("min_rtt") else None,
            "max_rtt_ms": sender.get("max_rtt", 0) / 1000.0 if sender.get("max_rtt") else None,
            "congestion": end.get("sender_tcp_congestion")}


def parse_ping(text):
    """RTT samples and their summary from `ping -n` output."""
    matches = list(_PING_TIME.finditer(text))
    rtts = [float(m.group(2)) for m in matches]
    sent = re.search(r"(\d+) packets transmitted", text)
    out = {"rtt_ms": rtts, "rtt_seq": [int(m.group(1)) for m in matches], "replies": len(rtts),
           "sent": int(sent.group(1)) if sent else None}
    if out["sent"]:
        out["lost_pct"] = 100.0 * (out["sent"] - len(rtts)) / out["sent"]
    if rtts:
        out.update({"rtt_min_ms": min(rtts), "rtt_median_ms": statistics.median(rtts),
                    "rtt_mean_ms": statistics.mean(rtts), "rtt_p95_ms": _percentile(rtts, 0.95),
                    "rtt_max_ms": max(rtts)})
    return out
