"""Sends again, byte for byte and from their original source address and port (raw socket), the
datagrams capture.py wrote to FILE, to GW:PORT. Prints how many were data records (type 4)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from forge import Sender  # noqa: E402

path, gw, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
records = 0
for line in open(path):
    src, sport, payload = line.split()
    data = bytes.fromhex(payload)
    Sender(f"{src}:{sport}").send(data, gw, port)
    records += data[:1] == b"\x04"
print(records)
