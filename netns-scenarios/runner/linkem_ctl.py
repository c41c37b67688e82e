"""Starting linkem processes and talking to their control sockets."""
import json
import os
import socket
import time


def request(path, command, timeout=2.0):
    """Sends one command line to a linkem control socket and returns the reply text."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(path)
        s.sendall((command + "\n").encode())
        chunks = []
        while True:
            b = s.recv(65536)
            if not b:
                break
            chunks.append(b)
    return b"".join(chunks).decode()


def stats(path):
    """Counters and settings of a running linkem (dict)."""
    return json.loads(request(path, "stats"))


def set_direction(path, target, spec):
    """Changes settings of a running linkem at run time (target: a2b, b2a or both)."""
    reply = request(path, f"set {target} {spec}")
    if not reply.startswith("ok"):
        raise RuntimeError(f"linkem {path}: {reply.strip()}")


def start(ns, node, binary, if_a, if_b, spec, seed, sock, log_path):
    """Starts linkem in `node`'s namespace between if_a and if_b; waits until it answers.
    `spec` holds optional 'a2b', 'b2a', 'both' setting strings."""
    args = [binary, "run", "--a", if_a, "--b", if_b, "--seed", str(seed), "--control", sock]
    for key in ("both", "a2b", "b2a"):
        if spec.get(key):
            args += [f"--{key}", str(spec[key])]
    if spec.get("fifo"):
        args += ["--fifo", str(spec["fifo"])]
    log = open(log_path, "w")
    p = ns.spawn(node, args, stdout=log, stderr=log)
    deadline = time.time() + 5
    while time.time() < deadline:
        if p.poll() is not None:
            raise RuntimeError(f"linkem in {node} exited: {open(log_path).read().strip()}")
        if os.path.exists(sock):
            try:
                stats(sock)
                return p
            except OSError:
                pass
        time.sleep(0.05)
    raise RuntimeError(f"linkem in {node} did not come up (see {log_path})")
