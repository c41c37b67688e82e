"""The sending hosts' own view of their iperf3 TCP flows over time (scenario key `tcp_samples:
SECONDS`): every interval, `ss` in the sender's namespace reads the data connection's TCP_INFO
(cwnd, unacked, smoothed RTT, bytes not yet sent, a BBR sender's bandwidth and min RTT estimates,
and the kernel's time accounting: busy, receive-window limited, send-buffer limited). One JSON line
per sample in `<flow>.ss.jsonl`; the flow's result gets `sender_limits`, which says what held the
sender back: its congestion window, the receiver's window, or its own send buffer."""
import json
import os
import re

from . import periodic

# Fields of one `ss -tinHO` line: name -> (regex, converter).
_FIELDS = {
    "cwnd": (r"\bcwnd:(\d+)", int),
    "unacked": (r"\bunacked:(\d+)", int),
    "rtt_ms": (r"\brtt:([\d.]+)/", float),
    "bytes_acked": (r"\bbytes_acked:(\d+)", int),
    "notsent": (r"\bnotsent:(\d+)", int),
    "busy_ms": (r"\bbusy:(\d+)ms", int),
    "rwnd_limited_ms": (r"\brwnd_limited:(\d+)ms", int),
    "sndbuf_limited_ms": (r"\bsndbuf_limited:(\d+)ms", int),
    "retrans_total": (r"\bretrans:\d+/(\d+)", int),
    "snd_wnd": (r"\bsnd_wnd:(\d+)", int),
    "bbr_bw_mbps": (r"\bbbr:\(bw:([\d.]+)bps", lambda v: round(float(v) / 1e6, 3)),  # BBR senders only
    "bbr_min_rtt_ms": (r"\bbbr:\(bw:[^,]*,mrtt:([\d.]+)", float),
}


def parse_ss_line(line):
    """The fields of one `ss -i` socket line that are present (a dict; missing ones left out), and
    `sock`, the socket's local address:port."""
    out = {}
    m = re.match(r"\s*\d+\s+\d+\s+(\S+)\s+\S+", line)
    if m:
        out["sock"] = m.group(1)
    for name, (pattern, conv) in _FIELDS.items():
        m = re.search(pattern, line)
        if m:
            out[name] = conv(m.group(1))
    return out


def data_connection(lines):
    """Fields of the line with the most bytes acknowledged (iperf3's data connection, not its
    control connection), or None."""
    parsed = [parse_ss_line(l) for l in lines if l.strip()]
    parsed = [p for p in parsed if "cwnd" in p]
    return max(parsed, key=lambda p: p.get("bytes_acked", 0)) if parsed else None


def sender_limits(samples):
    """What limited the sender over its samples: the kernel's busy time and the shares of it
    limited by the receiver's window and by the send buffer (from the data connection's last
    sample: the counters are cumulative), and the share of samples with the congestion window full
    (unacked >= cwnd). The data connection is the socket with the most bytes acknowledged (after
    it closes, iperf3's control connection is the only one left)."""
    if not samples:
        return None
    last = max(samples, key=lambda s: s.get("bytes_acked", 0))
    samples = [s for s in samples if s.get("sock") == last.get("sock")]
    busy = last.get("busy_ms") or 0
    full = sum(1 for s in samples if s.get("unacked", 0) >= s.get("cwnd", 1) > 0)
    share = (lambda k: round(last.get(k, 0) / busy, 4) if busy else None)
    return {"samples": len(samples), "busy_ms": busy,
            "rwnd_limited_share": share("rwnd_limited_ms"), "sndbuf_limited_share": share("sndbuf_limited_ms"),
            "cwnd_full_share": round(full / len(samples), 4)}


class TcpSampler(periodic.PeriodicSampler):
    """Samples the sender side of every iperf3 TCP flow every `interval` seconds while a run's
    traffic flows; writes `<flow>.ss.jsonl` when stopped."""

    def __init__(self, ns, topo, flows, run_dir, interval):
        super().__init__(interval)
        self.ns, self.run_dir = ns, run_dir
        self.flows = [(f["name"], f["from"], int(f["port"]), topo.address(f["to"]))
                      for f in flows if f.get("type", "tcp") == "tcp"]
        self.samples = {name: [] for name, *_ in self.flows}

    def limits(self):
        """{flow: sender_limits(...)} for every sampled flow."""
        return {name: sender_limits(s) for name, s in self.samples.items()}

    def sample(self, t):
        for name, node, port, addr in self.flows:
            r = self.ns.exec(node, ["ss", "-tinHO", "state", "established", "dst", addr,
                                    "dport", "=", f":{port}"], capture=True, check=False)
            conn = data_connection((r or "").splitlines())
            if conn:
                self.samples[name].append({"t_s": t, **conn})

    def finish(self):
        for name, samples in self.samples.items():
            with open(os.path.join(self.run_dir, f"{name}.ss.jsonl"), "w") as f:
                for s in samples:
                    f.write(json.dumps(s) + "\n")
