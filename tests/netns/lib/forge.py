"""Sends test datagrams to an ncgw gateway.

legit DST PORT
    one ordinary UDP datagram to DST:PORT (travels through the tunnel).
forged SRC GW PORT INNER_SRC INNER_DST INNER_PORT ENDPOINT_A ENDPOINT_B [SEQ]
    a plain-transport datagram that passes every check of the receiving core: current version,
    the tunnel's real session id (derived from the two gateways' endpoints ADDR:PORT as the
    gateways derive it, docs/plain-wire.md),
    sequence number SEQ (default 0), carrying an IPv4/UDP packet INNER_SRC -> INNER_DST:INNER_PORT.
    SRC is ADDR (an ordinary socket bound to ADDR) or ADDR:SPORT (a raw socket, so the datagram
    carries the source port of the gateway's own socket: it impersonates that gateway).
garbage SRC GW PORT
    malformed datagrams (see GARBAGE) from SRC (ADDR or ADDR:SPORT as above); prints how many.
runts SRC GW PORT
    3-byte datagrams, too short for any transport header; prints how many.
"""
import socket
import struct
import sys

VERSION = 2     # transports/plain/wire.h kVersion
MAGIC = 0x4E47


def fnv1a_bytes(data):
    h = 2166136261
    for c in data:
        h ^= c
        h = (h * 16777619) & 0xFFFFFFFF
    return h


def endpoint_key(endpoint):
    """(family, address bytes, port) of "ADDR:PORT" or "[ADDR6]:PORT", ordered as the gateways order them."""
    addr, _, port = endpoint.rpartition(":")
    addr = addr.strip("[]")
    v6 = ":" in addr
    return (v6, socket.inet_pton(socket.AF_INET6 if v6 else socket.AF_INET, addr), int(port))


def session_id(a, b):
    """The session id both gateways derive from their endpoints when plain.session_id is not configured."""
    data = b""
    for v6, addr, port in sorted([endpoint_key(a), endpoint_key(b)]):
        data += bytes([6 if v6 else 4]) + addr + struct.pack("!H", port)
    return max(1, fnv1a_bytes(data))


def header(session, seq=0, version=VERSION, ptype=1, flags=0, auth_len=0, magic=MAGIC):
    return struct.pack("!HBBBBHI", magic, version, ptype, flags, auth_len, seq, session)


def checksum(data):
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    s = (s & 0xFFFF) + (s >> 16)
    return ~((s & 0xFFFF) + (s >> 16)) & 0xFFFF


def ipv4_udp(src, dst, dport, payload):
    udp = struct.pack("!HHHH", 40000, dport, 8 + len(payload), 0) + payload
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 1, 0, 64, 17, 0,
                      socket.inet_aton(src), socket.inet_aton(dst))
    return hdr[:10] + struct.pack("!H", checksum(hdr)) + hdr[12:] + udp


class Sender:
    """Sends UDP payloads from ADDR (ordinary socket) or ADDR:SPORT (raw socket, any source port)."""

    def __init__(self, src):
        addr, _, sport = src.partition(":")
        self.sport = int(sport) if sport else None
        if self.sport is None:
            self.s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        else:
            self.s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP)
        self.s.bind((addr, 0))

    def send(self, payload, gw, port):
        if self.sport is None:
            self.s.sendto(payload, (gw, port))
        else:  # UDP checksum 0: "not computed", valid over IPv4
            udp = struct.pack("!HHHH", self.sport, port, 8 + len(payload), 0) + payload
            self.s.sendto(udp, (gw, 0))


GARBAGE = [
    b"\x4e",                                      # too short
    b"\x4e\x47\x02\x01\x00\x00\x00",              # too short: 7 header bytes
    header(1, magic=0x4500) + b"x" * 20,          # bad magic (an IPv4 packet)
    header(1, version=1) + b"x" * 20,             # v1 header
    header(1, version=9) + b"x" * 20,             # unknown version
    header(1, ptype=7) + b"x" * 20,               # unknown type
    header(1, flags=1) + b"x" * 20,               # authenticated flag, unsupported
    header(1, auth_len=16) + b"x" * 20,           # authentication tag, unsupported
    header(1),                                    # data without payload
    header(1, ptype=2) + b"x",                    # keep-alive with payload
]


def main(argv):
    mode = argv[1]
    if mode == "legit":
        Sender("0.0.0.0").send(b"legit", argv[2], int(argv[3]))
    elif mode == "forged":
        src, gw, port, isrc, idst, iport, endpoint_a, endpoint_b = argv[2:10]
        seq = int(argv[10]) % 65536 if len(argv) > 10 else 0
        inner = ipv4_udp(isrc, idst, int(iport), b"forged")
        Sender(src).send(header(session_id(endpoint_a, endpoint_b), seq) + inner, gw, int(port))
    elif mode in ("garbage", "runts"):
        src, gw, port = argv[2:5]
        items = GARBAGE if mode == "garbage" else [b"\x00\x01\x02"] * 5
        sender = Sender(src)
        for g in items:
            sender.send(g, gw, int(port))
        print(len(items))
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main(sys.argv)
