#!/usr/bin/python3
"""What a packet code can carry within a bound on the delay it adds, on one loss channel.

Monte Carlo over a Gilbert-Elliott chain (seeded, replayable), counted in packet slots (one slot =
one packet's transmission time at the path rate; at 10 Mbit/s and 1,340-byte packets, 1.1 ms).
Three ways to place the repairs of a coding window (CW) are compared:
  end      n sources, then k repairs over all of them (what the tunnel does; n <= 255);
  spread   a repair over the sources sent so far after every m-th of 64 sources, f more at the end;
  sliding  the same without CW ends (640 sources per window: a sliding-window code).
A repair that arrives fixes one earlier source still missing (any repair covers every source
before it); a CW whose sources are not all recovered by its last repair needs a retransmission
round, which costs `rtt` slots and u / (1 - e) more transmissions for its u missing sources.
Delivery is in order. Per placement: eff = sources / transmissions / (1 - e) (1 = the erasure
limit), hold = mean time a source waits past its own arrival for in-order delivery (ms), P = share
of CWs that need a round. For each bound on hold, the table gives the layout of highest eff.
  frontier.py [PACKETS_PER_S [RTT_MS]]   (default 900 and 60: a 10 Mbit/s link at 60 ms RTT)"""
import random
import sys

CHANNELS = {  # name: (p = P(good -> bad), r = P(bad -> good)); a bad-state transmission is lost
    "random 5 %": (0.05, 0.95),
    "random 10 %": (0.10, 0.90),
    "GE 5 %, burst 3": (0.0175, 0.3333),
    "GE 15 %, burst 3": (0.0588, 0.3333),
}
HOLD_BOUNDS_MS = (5, 10, 15, 25)


def losses(p, r, rng):
    """The chain's loss indicator per transmission, starting from its stationary law."""
    bad = rng.random() < p / (p + r)
    while True:
        yield bad
        bad = (rng.random() >= r) if bad else (rng.random() < p)


def simulate(plan, p, r, rtt, cws, seed=1):
    """(P(round), eff, hold) of a CW layout `plan` ('S' source / 'R' repair), repeated `cws` times."""
    rng = random.Random(seed)
    chain = losses(p, r, rng)
    e = p / (p + r)
    sent = sources = rounds = 0
    hold = 0.0
    t = floor = 0  # slot clock; in-order delivery floor left by an earlier CW's round
    for _ in range(cws):
        missing, waiting = 0, []
        for kind in plan:
            lost = next(chain)
            sent += 1
            t += 1
            if kind == "S":
                sources += 1
                missing += lost
                if missing:
                    waiting.append(t)
                else:
                    hold += max(0, floor - t)
            elif not lost and missing:
                missing -= 1
                if not missing:
                    hold += sum(max(t, floor) - a for a in waiting)
                    waiting = []
        if missing:
            rounds += 1
            sent += missing / (1 - e)
            floor = max(t + rtt, floor)
            hold += sum(floor - a for a in waiting)
    return rounds / cws, sources / sent / (1 - e), hold / sources


def end_plan(n, k):
    return "S" * n + "R" * k


def spread_plan(n, m, f):
    body = "".join("S" + ("R" if (i + 1) % m == 0 and i + 1 < n else "") for i in range(n))
    return body + "R" * f


def candidates():
    """(family, label, plan, CWs to simulate) for every layout compared."""
    for n in (4, 8, 13, 27, 64, 128, 255):  # CWs of up to 255 sources since 2026-11-28 (64 before)
        for k in range(0, 17 if n <= 27 else 41):
            yield "end", f"n {n}, k {k}", end_plan(n, k), max(2000, 60000 // n)
    for m in (4, 5, 6, 7, 8, 10, 13):
        for f in (1, 2, 3, 4, 6):
            yield "spread", f"n 64, every {m}, +{f}", spread_plan(64, m, f), 1000
    for m in (3, 4, 5, 6, 7, 8, 10, 13):
        yield "sliding", f"every {m}", spread_plan(640, m, 2), 100


def main():
    pps = float(sys.argv[1]) if len(sys.argv) > 1 else 900.0
    rtt_ms = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    slot_ms = 1000.0 / pps
    rtt = int(round(rtt_ms / slot_ms))
    print(f"{pps:.0f} packets/s, RTT {rtt_ms:.0f} ms ({rtt} slots). Best eff (share of the erasure limit)")
    print("with mean hold <= bound, per family; in brackets: the layout, P(round), hold in ms.\n")
    print("| channel | family | " + " | ".join(f"hold <= {b} ms" for b in HOLD_BOUNDS_MS) + " |")
    print("|---|---|" + "---|" * len(HOLD_BOUNDS_MS))
    for name, (p, r) in CHANNELS.items():
        rows = [(fam, label, simulate(plan, p, r, rtt, cws)) for fam, label, plan, cws in candidates()]
        for fam in ("end", "spread", "sliding"):
            cells = []
            for b in HOLD_BOUNDS_MS:
                ok = [x for x in rows if x[0] == fam and x[2][2] * slot_ms <= b]
                if not ok:
                    cells.append("-")
                    continue
                _, label, (pr, eff, h) = max(ok, key=lambda x: x[2][1])
                cells.append(f"{eff:.3f} ({label}; {pr:.2f}, {h * slot_ms:.1f})")
            print(f"| {name} | {fam} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
