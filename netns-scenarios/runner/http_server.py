#!/usr/bin/python3
"""The web server of `http` flows: Python's http.server serving one directory, with the TCP
congestion control of every accepted connection set per socket (root may choose any the kernel
has, not only the namespace's allowed ones), and the sending socket's smoothed RTT (TCP_INFO)
sampled every 100 ms while a response is sent, written as JSON to --stats when the server stops.
  http_server.py --dir DIR --port PORT [--cc NAME] --stats FILE"""
import argparse
import functools
import http.server
import json
import signal
import socket
import struct
import sys
import time

_TCPI_RTT_OFFSET = 68  # struct tcp_info: u32 tcpi_rtt (microseconds) after 8 bytes + 15 u32 fields


def srtt_ms(sock):
    """The socket's smoothed RTT in ms (TCP_INFO)."""
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
    return struct.unpack_from("I", info, _TCPI_RTT_OFFSET)[0] / 1000.0


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves files; sets the congestion control; samples the RTT while sending."""
    cc = None
    stats = {"rtt_samples_ms": [], "responses": 0, "cc": None}

    def setup(self):
        super().setup()
        if self.cc:
            self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, self.cc.encode())
        Handler.stats["cc"] = self.request.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16) \
            .rstrip(b"\0").decode()

    def copyfile(self, source, outputfile):
        next_sample = time.monotonic()
        while True:
            buf = source.read(64 * 1024)
            if not buf:
                break
            outputfile.write(buf)
            if time.monotonic() >= next_sample:
                Handler.stats["rtt_samples_ms"].append(srtt_ms(self.request))
                next_sample += 0.1
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
