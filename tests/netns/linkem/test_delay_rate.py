#!/usr/bin/python3
"""netns: linkem's delay and rate measured end to end. Usage: test_delay_rate.py LINKEM {ping|tcp}.
ping: 10 ms each way; the median of 50 pings is 20 ms +- 1 ms and none is below 20 ms.
tcp: 5 Mbit/s each way (frame bytes), no loss; iperf3 TCP reaches >= 90% of the rate."""
import json
import subprocess
import sys
import time

from nstopo import H2, Link

sys.path.insert(0, __file__.rsplit("/", 4)[0] + "/netns-scenarios")
from runner.traffic import parse_ping  # noqa: E402


def check(name, ok, text):
    """Prints one check; returns ok."""
    print(f"{'PASS' if ok else 'FAIL'} {name}: {text}", flush=True)
    return ok


def ping(linkem):
    """Median and minimum of 50 pings over 10 ms + 10 ms."""
    with Link(linkem, both="delay=10ms", seed=5, fifo=10) as link:
        link.ns.exec("h1", ["ping", "-n", "-c", 1, H2], check=False)  # resolve ARP first
        out = link.ns.exec("h1", ["ping", "-n", "-c", 50, "-i", 0.05, H2], capture=True, timeout=60)
    r = parse_ping(out)
    print(f"ping: {r['replies']} replies, min {r.get('rtt_min_ms')} median {r.get('rtt_median_ms')} "
          f"max {r.get('rtt_max_ms')} ms", flush=True)
    ok = check("replies", r["replies"] == 50, f"{r['replies']}/50")
    ok &= check("median", r["replies"] and abs(r["rtt_median_ms"] - 20.0) <= 1.0,
                f"{r.get('rtt_median_ms')} ms (limit 20 +- 1)")
    return check("minimum", r["replies"] and r["rtt_min_ms"] >= 20.0,
                 f"{r.get('rtt_min_ms')} ms (limit >= 20)") and ok


def tcp(linkem):
    """iperf3 TCP goodput over 5 Mbit/s."""
    rate = 5e6
    with Link(linkem, both="rate=5mbit limit=100p delay=5ms", seed=6) as link:
        server = link.ns.spawn("h2", ["iperf3", "-s", "-1", "-p", 5302, "--json"], stdout=subprocess.PIPE)
        time.sleep(0.5)
        client = json.loads(link.ns.exec("h1", ["iperf3", "-c", H2, "-p", 5302, "-t", 10, "-O", 2,
                                                 "--json"], capture=True, timeout=60))
        server.communicate(timeout=20)
        stats = link.stats()["a2b"]
    g = client["end"]["sum_received"]["bits_per_second"]
    print(f"iperf3 TCP: {g / 1e6:.3f} Mbit/s received; linkem a2b {stats['frames_out']} frames, "
          f"queue drops {stats['dropped_queue']}", flush=True)
    return check("tcp at 5 Mbit/s", g >= 0.9 * rate, f"{g / 1e6:.3f} Mbit/s = {100 * g / rate:.1f}% (limit >= 90%)")


if __name__ == "__main__":
    fn = {"ping": ping, "tcp": tcp}[sys.argv[2]]
    sys.exit(0 if fn(sys.argv[1]) else 1)
