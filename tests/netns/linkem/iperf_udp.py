"""iperf3 UDP datagram counting between the test topology's hosts (end-to-end loss), with the
receiver's socket-buffer drops (UdpRcvbufErrors of h2's namespace) reported beside it: on a loaded
machine the receiving process can fall behind, and those drops are not the link's."""
import json
import subprocess
import time

from nstopo import H2


def rcvbuf_errors(link):
    """UDP receive-buffer drops counted so far in h2's namespace."""
    lines = [l.split() for l in link.ns.exec("h2", ["cat", "/proc/net/snmp"], capture=True).splitlines()
             if l.startswith("Udp:")]
    return int(lines[1][lines[0].index("RcvbufErrors")])


def udp_loss(link, datagrams, pps, length=64, port=5301):
    """Sends `datagrams` UDP datagrams h1 -> h2 at `pps` with iperf3; returns the receiver's
    (packets, lost_packets, receive-buffer drops during the run)."""
    before = rcvbuf_errors(link)
    server = link.ns.spawn("h2", ["iperf3", "-s", "-1", "-p", port, "--json"],
                           stdout=subprocess.PIPE)
    time.sleep(0.5)
    rate = pps * length * 8
    client = link.ns.exec("h1", ["iperf3", "-c", H2, "-p", port, "-u", "-l", length, "-b", rate,
                                 "-w", "4M", "-k", datagrams, "--json"], capture=True, timeout=120)
    out, _ = server.communicate(timeout=30)
    srv = json.loads(out)["end"]["sum"]
    sent = json.loads(client)["end"]["sum"]["packets"]
    drops = rcvbuf_errors(link) - before
    print(f"iperf3 UDP: client sent {sent}, server counted {srv['packets']} with "
          f"{srv['lost_packets']} lost ({srv['lost_percent']:.3f}%); receiver socket drops {drops}",
          flush=True)
    return srv["packets"], srv["lost_packets"], drops
