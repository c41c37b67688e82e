"""Counts UDP datagrams arriving at ADDR:PORT for SECONDS; writes the count to /tmp/udp_count_PORT."""
import socket
import sys
import time

addr, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
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
with open(f"/tmp/udp_count_{port}", "w") as f:
    f.write(str(count))
