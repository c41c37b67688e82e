"""Captures the UDP datagrams arriving on interface IFACE for PORT during SECONDS (AF_PACKET) and
writes one line per datagram to OUT: source address, source port, payload in hex. Prints the count."""
import select
import socket
import struct
import sys
import time

iface, port, seconds, out = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(0x0800))
s.bind((iface, 0))
lines = []
end = time.time() + seconds
while time.time() < end:
    if not select.select([s], [], [], 0.05)[0]:
        continue
    pkt, addr = s.recvfrom(65535)
    if addr[2] == socket.PACKET_OUTGOING or pkt[9] != 17:
        continue
    ihl = (pkt[0] & 15) * 4
    sport, dport = struct.unpack("!HH", pkt[ihl:ihl + 4])
    if dport == port:
        lines.append(f"{socket.inet_ntoa(pkt[12:16])} {sport} {pkt[ihl + 8:].hex()}")
with open(out, "w") as f:
    f.write("".join(line + "\n" for line in lines))
print(len(lines))
