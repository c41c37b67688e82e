#!/usr/bin/python3
"""netns: linkem's loss measured end to end. Usage: test_loss.py LINKEM {bernoulli|gilbert}.
bernoulli: 5% loss, >= 1e5 iperf3 UDP datagrams, measured loss within 0.3 pp.
gilbert: simple Gilbert (loss only in the bad state, r = 0.25, 5% stationary loss): iperf3 UDP
loss within 0.5 pp, and the per-datagram pattern (udp_seq.py) gives loss within 0.5 pp and mean
burst length within 10% of 1/r."""
import json
import os
import sys
import time

from iperf_udp import udp_loss
from nstopo import H2, Link

HERE = os.path.dirname(os.path.abspath(__file__))


def check(name, ok, text):
    """Prints one check; returns ok."""
    print(f"{'PASS' if ok else 'FAIL'} {name}: {text}", flush=True)
    return ok


def measured(fn, what):
    """Runs a measurement up to 3 times until the receiver's socket dropped nothing (a loaded
    machine, not the link); returns the last result."""
    for attempt in range(3):
        r = fn()
        if r[-1] == 0:
            return r
        print(f"{what}: receiver socket dropped {r[-1]} datagrams (machine busy), measuring again",
              flush=True)
    return r


def seq_pattern(link, n, pps):
    """Runs udp_seq.py h1 -> h2 and returns (its analysis, receiver socket drops)."""
    import subprocess
    from iperf_udp import rcvbuf_errors
    before = rcvbuf_errors(link)
    rx = link.ns.spawn("h2", ["/usr/bin/python3", os.path.join(HERE, "udp_seq.py"), "recv", 6000, n, 1.5],
                       stdout=subprocess.PIPE)
    time.sleep(0.5)
    link.ns.exec("h1", ["/usr/bin/python3", os.path.join(HERE, "udp_seq.py"), "send", H2, 6000, n, pps],
                 timeout=120)
    out, _ = rx.communicate(timeout=60)
    r = json.loads(out)
    drops = rcvbuf_errors(link) - before
    print(f"udp_seq: {r}; receiver socket drops {drops}", flush=True)
    return r, drops


def bernoulli(linkem):
    """5% Bernoulli loss."""
    with Link(linkem, a2b="loss=bernoulli:0.05", seed=20240501) as link:
        total, lost, drops = measured(lambda: udp_loss(link, 120000, 20000), "iperf3")
        print(f"linkem counters a2b: {link.stats()['a2b']}")
    e = lost / total
    ok = check("datagrams", total >= 100000, f"{total} counted")
    ok &= check("receiver kept up", drops == 0, f"{drops} receiver socket drops")
    return check("bernoulli 5%", abs(e - 0.05) <= 0.003, f"measured {100 * e:.3f}% (limit 5 +- 0.3)") and ok


def gilbert(linkem):
    """Simple Gilbert: loss 1 in bad, 0 in good; mean burst 1/r = 4; stationary loss 5%."""
    r = 0.25
    p = 0.05 * r / (1 - 0.05)
    with Link(linkem, a2b=f"loss=gilbert:p={p:.6f},r={r},good=0,bad=1", seed=77) as link:
        total, lost, drops = measured(lambda: udp_loss(link, 150000, 20000), "iperf3")
        pat, pdrops = measured(lambda: seq_pattern(link, 200000, 25000), "udp_seq")
        print(f"linkem counters a2b: {link.stats()['a2b']}")
    e = lost / total
    ok = check("iperf3 datagrams", total >= 100000, f"{total} counted")
    ok &= check("receiver kept up", drops == 0 and pdrops == 0, f"{drops} and {pdrops} receiver socket drops")
    ok &= check("iperf3 gilbert loss", abs(e - 0.05) <= 0.005, f"{100 * e:.3f}% (limit 5 +- 0.5)")
    ok &= check("pattern loss", abs(pat["loss_rate"] - 0.05) <= 0.005,
                f"{100 * pat['loss_rate']:.3f}% over {pat['sent']} datagrams")
    ok &= check("mean burst", abs(pat["mean_burst"] - 1 / r) <= 0.1 / r,
                f"{pat['mean_burst']:.3f} over {pat['bursts']} bursts (limit {1 / r} +- 10%)")
    return ok


if __name__ == "__main__":
    fn = {"bernoulli": bernoulli, "gilbert": gilbert}[sys.argv[2]]
    sys.exit(0 if fn(sys.argv[1]) else 1)
