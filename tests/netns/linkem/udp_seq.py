#!/usr/bin/python3
"""Per-datagram loss pattern over UDP: `send ADDR PORT N PPS` sends N datagrams carrying their
sequence number; `recv PORT N IDLE_S` receives until IDLE_S of silence and prints JSON with the
loss rate, the number of loss bursts and the mean burst length (runs of consecutive missing
sequence numbers). iperf3 gives loss counts but not bursts; this gives both."""
import json
import socket
import struct
import sys
import time


def send(addr, port, n, pps):
    """Sends n datagrams (64 bytes, sequence number first) paced at pps."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    pad = b"\0" * 56
    t0 = time.perf_counter()
    batch = max(1, pps // 1000)
    for i in range(n):
        while True:
            try:
                s.sendto(struct.pack("!Q", i) + pad, (addr, port))
                break
            except BlockingIOError:
                time.sleep(0.0005)
        if i % batch == batch - 1:
            ahead = (i + 1) / pps - (time.perf_counter() - t0)
            if ahead > 0:
                time.sleep(ahead)


def analyse(got, n):
    """Loss rate and burst statistics of the received sequence numbers out of n."""
    lost = bursts = 0
    run = 0
    for i in range(n):
        if got[i]:
            if run:
                bursts += 1
            run = 0
        else:
            lost += 1
            run += 1
    if run:
        bursts += 1
    return {"sent": n, "received": n - lost, "lost": lost, "loss_rate": lost / n,
            "bursts": bursts, "mean_burst": lost / bursts if bursts else 0.0}


def recv(port, n, idle):
    """Receives until `idle` seconds without a datagram; prints the analysis as JSON."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, getattr(socket, "SO_RCVBUFFORCE", 33), 16 << 20)
    s.bind(("0.0.0.0", port))
    got = bytearray(n)
    s.settimeout(30.0)  # the first datagram may take a moment
    dup = 0
    while True:
        try:
            data = s.recv(2048)
        except socket.timeout:
            break
        s.settimeout(idle)
        (seq,) = struct.unpack("!Q", data[:8])
        if seq < n:
            dup += got[seq]
            got[seq] = 1
    out = analyse(got, n)
    out["duplicates"] = dup
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "send":
        send(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    else:
        recv(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]))
