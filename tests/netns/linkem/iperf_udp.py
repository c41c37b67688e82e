"""iperf3 UDP datagram counting between the test topology's hosts (end-to-end loss)."""
import json
import subprocess
import time

from nstopo import H2


def udp_loss(link, datagrams, pps, length=64, port=5301):
    """Sends `datagrams` UDP datagrams h1 -> h2 at `pps` with iperf3; returns the receiver's
    (packets, lost_packets) from the server's JSON."""
    server = link.ns.spawn("h2", ["iperf3", "-s", "-1", "-p", port, "--json"],
                           stdout=subprocess.PIPE)
    time.sleep(0.5)
    rate = pps * length * 8
    client = link.ns.exec("h1", ["iperf3", "-c", H2, "-p", port, "-u", "-l", length, "-b", rate,
                                 "-k", datagrams, "--json"], capture=True, timeout=120)
    out, _ = server.communicate(timeout=30)
    srv = json.loads(out)["end"]["sum"]
    sent = json.loads(client)["end"]["sum"]["packets"]
    print(f"iperf3 UDP: client sent {sent}, server counted {srv['packets']} with "
          f"{srv['lost_packets']} lost ({srv['lost_percent']:.3f}%)", flush=True)
    return srv["packets"], srv["lost_packets"]
