#!/usr/bin/python3
"""The web server of `http` flows: Python's http.server serving one directory, with the TCP
congestion control of every accepted connection set per socket (root may choose any the kernel
has, not only the namespace's allowed ones), and the sending socket's smoothed RTT and sender
state (TCP_INFO: cwnd, packets in flight, pacing and delivery rate, retransmissions) sampled every
100 ms while a response is sent, written as JSON to --stats when the server stops.
  http_server.py --dir DIR --port PORT [--cc NAME] --stats FILE"""
import argparse
import functools
import http.server
import json
import signal
import socket
import struct
import sys
import threading
import time

# Offsets in struct tcp_info (linux/tcp.h): u32 tcpi_unacked 24, tcpi_rtt 68 (us), tcpi_snd_cwnd 80,
# tcpi_total_retrans 100; u64 tcpi_pacing_rate 104 and tcpi_delivery_rate 160 (bytes/s); u64
# tcpi_busy_time 168, tcpi_rwnd_limited 176, tcpi_sndbuf_limited 184 (us, cumulative).
_TCPI_SIZE = 192


def sender_state(sock):
    """(smoothed RTT ms, [cwnd, unacked, pacing Mbit/s, delivery Mbit/s, total retransmissions,
    smoothed RTT ms, busy ms, receive-window limited ms, send-buffer limited ms]) of a socket
    (TCP_INFO)."""
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, _TCPI_SIZE)
    if len(info) < _TCPI_SIZE:
        return struct.unpack_from("I", info, 68)[0] / 1000.0, None
    u32 = lambda off: struct.unpack_from("I", info, off)[0]  # noqa: E731
    u64 = lambda off: struct.unpack_from("Q", info, off)[0]  # noqa: E731
    return u32(68) / 1000.0, [u32(80), u32(24), round(u64(104) * 8e-6, 3), round(u64(160) * 8e-6, 3), u32(100),
                              round(u32(68) / 1000.0, 3), u64(168) // 1000, u64(176) // 1000, u64(184) // 1000]


def sample_sender(sock, stats, done, period=0.1):
    """Appends the socket's RTT and sender state to `stats` every `period` seconds until `done` is
    set. Runs in its own thread: a write into a full send buffer blocks for as long as the path
    takes to drain it, so sampling between writes would leave gaps and bunch samples together."""
    start = time.monotonic()
    while True:
        try:
            rtt, state = sender_state(sock)
        except OSError:  # the connection closed under us
            return
        stats["rtt_samples_ms"].append(rtt)
        if state:
            stats["sender_samples"].append([round(time.monotonic() - start, 3)] + state)
        if done.wait(period):
            return


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves files; sets the congestion control; samples the RTT while sending."""
    cc = None
    stats = {"rtt_samples_ms": [], "responses": 0, "cc": None,
             "sender_samples": [], "sender_fields": ["t_s", "cwnd", "unacked", "pacing_mbps",
                                                     "delivery_mbps", "total_retrans", "srtt_ms",
                                                     "busy_ms", "rwnd_limited_ms", "sndbuf_limited_ms"]}

    def setup(self):
        super().setup()
        if self.cc:
            self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, self.cc.encode())
        Handler.stats["cc"] = self.request.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16) \
            .rstrip(b"\0").decode()

    def copyfile(self, source, outputfile):
        done = threading.Event()
        sampler = threading.Thread(target=sample_sender, args=(self.request, Handler.stats, done), daemon=True)
        sampler.start()
        try:
            super().copyfile(source, outputfile)
        finally:
            done.set()
            sampler.join()
        Handler.stats["responses"] += 1

    def log_message(self, *args):
        pass


def main():
    """Serves until SIGTERM, then writes the stats."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--cc")
    ap.add_argument("--stats", required=True)
    a = ap.parse_args()
    Handler.cc = a.cc
    server = http.server.ThreadingHTTPServer(("", a.port), functools.partial(Handler, directory=a.dir))

    def stop(*_):
        json.dump(Handler.stats, open(a.stats, "w"))
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.serve_forever()


if __name__ == "__main__":
    main()
