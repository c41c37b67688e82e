"""Sends test datagrams.
legit DST PORT: one ordinary UDP datagram to DST:PORT (travels through the tunnel).
forged SRC GW PORT INNER_SRC INNER_DST INNER_PORT: a plain-transport datagram (valid header,
session id 1..) from SRC to GW:PORT carrying an IPv4/UDP packet INNER_SRC -> INNER_DST:INNER_PORT.
"""
import socket
import struct
import sys


def ipv4_udp(src, dst, dport, payload):
    udp = struct.pack("!HHHH", 40000, dport, 8 + len(payload), 0) + payload
    total = 20 + len(udp)
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, total, 1, 0, 64, 17, 0,
                      socket.inet_aton(src), socket.inet_aton(dst))
    csum = sum(struct.unpack("!10H", hdr))
    csum = (csum & 0xFFFF) + (csum >> 16)
    csum = ~((csum & 0xFFFF) + (csum >> 16)) & 0xFFFF
    return hdr[:10] + struct.pack("!H", csum) + hdr[12:] + udp


mode = sys.argv[1]
if mode == "legit":
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"legit", (sys.argv[2], int(sys.argv[3])))
else:
    src, gw, port, isrc, idst, iport = sys.argv[2:8]
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((src, 0))
    inner = ipv4_udp(isrc, idst, int(iport), b"forged")
    for session in range(0, 4):  # a few guesses: the sender check must stop all of them
        header = struct.pack("!HBBBBHI", 0x4E47, 1, 1, 0, 0, 0, session)
        s.sendto(header + inner, (gw, int(port)))
