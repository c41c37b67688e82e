"""Counts UDP datagrams arriving at ADDR:PORT for SECONDS; writes the count to OUT
(default /tmp/udp_count_PORT)."""
import socket
import sys
import time

addr, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
out = sys.argv[4] if len(sys.argv) > 4 else f"/tmp/udp_count_{port}"
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((addr, port))
s.settimeout(0.1)
count = 0
end = time.time() + seconds
while time.time() < end:
    try:
        s.recv(2048)
        count += 1
    except socket.timeout:
        pass
with open(out, "w") as f:
    f.write(str(count))
