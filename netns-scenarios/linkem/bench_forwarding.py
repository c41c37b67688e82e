#!/usr/bin/python3
"""Measures linkem's own forwarding rate on a clean, unlimited link (no delay, no loss) with
1500-byte IP packets (1514-byte frames): iperf3 UDP at a high offered rate and iperf3 TCP
(MSS 1448 + timestamps = 1514-byte frames), h1 -> h2 through linkem.
Usage: bench_forwarding.py LINKEM [seconds]. Numbers depend on the (shared) machine."""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "netns", "linkem"))
from nstopo import H2, Link  # noqa: E402


def iperf(link, args, port):
    """One iperf3 run h1 -> h2; returns (client JSON, server JSON)."""
    server = link.ns.spawn("h2", ["iperf3", "-s", "-1", "-p", port, "--json"], stdout=subprocess.PIPE)
    time.sleep(0.5)
    c = json.loads(link.ns.exec("h1", ["iperf3", "-c", H2, "-p", port, "--json"] + args,
                                capture=True, timeout=120))
    s = json.loads(server.communicate(timeout=30)[0])
    return c, s


def main():
    """Prints UDP and TCP forwarding rates and linkem's frame counters."""
    linkem, secs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with Link(linkem, seed=1) as link:
        before = link.stats()["a2b"]
        c, s = iperf(link, ["-u", "-l", "1472", "-b", "3G", "-t", secs], 5401)
        after = link.stats()["a2b"]
        srv = s["end"]["sum"]
        fin = after["frames_in"] - before["frames_in"]
        frames = after["frames_out"] - before["frames_out"]
        print(f"UDP 1472-byte payload (1514-byte frames), iperf3 offered "
              f"{c['end']['sum']['bits_per_second'] / 1e9:.3f} Gbit/s; linkem read {fin} frames and "
              f"wrote {frames} = {frames * 1514 * 8 / secs / 1e9:.3f} Gbit/s of frames "
              f"({frames / secs / 1e3:.1f} kframes/s); iperf3 receiver counted {srv['lost_percent']:.2f}% lost "
              "(receiver socket and frames linkem never saw included)")
        before = link.stats()["a2b"]
        c, s = iperf(link, ["-t", secs], 5402)
        after = link.stats()["a2b"]
        frames = after["frames_out"] - before["frames_out"]
        byts = after["bytes_out"] - before["bytes_out"]
        print(f"TCP: {c['end']['sum_received']['bits_per_second'] / 1e9:.3f} Gbit/s goodput, "
              f"retransmits {c['end']['sum_sent'].get('retransmits')}; linkem forwarded {frames} frames, "
              f"{byts * 8 / secs / 1e9:.3f} Gbit/s of frame bytes, mean frame {byts / max(frames, 1):.0f} B")


if __name__ == "__main__":
    main()
