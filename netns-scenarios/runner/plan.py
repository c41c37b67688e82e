"""Pure planning of a run's topology: interface names, addresses, routes, tunnel routes.
No system calls here, so the routing logic can be checked on its own."""
import ipaddress
from collections import deque


def addressing(body):
    """Per link: subnet, each end's interface name and address. Returns a list of dicts:
    {index, a, b, if_a, if_b, addr_a, addr_b, subnet, prefixlen, spec}."""
    counters = {n: 0 for n in body["nodes"]}
    links = []
    for i, l in enumerate(body["links"]):
        net = ipaddress.ip_network(l.get("subnet", f"10.0.{i}.0/24"))
        hosts = list(itertools_islice(net.hosts(), 2))
        entry = {"index": i, "a": l["a"], "b": l["b"], "subnet": str(net),
                 "prefixlen": net.prefixlen, "spec": l,
                 "if_a": f"e{counters[l['a']]}", "if_b": f"e{counters[l['b']]}",
                 "addr_a": str(hosts[0]), "addr_b": str(hosts[1])}
        counters[l["a"]] += 1
        counters[l["b"]] += 1
        links.append(entry)
    return links


def itertools_islice(it, n):
    """First n items of an iterator."""
    out = []
    for x in it:
        out.append(x)
        if len(out) == n:
            break
    return out


def _neighbours(links, node):
    """(neighbour, link) pairs of `node`."""
    for l in links:
        if l["a"] == node:
            yield l["b"], l
        elif l["b"] == node:
            yield l["a"], l


def shortest_path(nodes, links, src, dst_link):
    """Nodes from `src` to an endpoint of `dst_link`, forwarding only through gateways; None if
    unreachable. The path ends at the first endpoint reached."""
    targets = {dst_link["a"], dst_link["b"]}
    prev = {src: None}
    q = deque([src])
    while q:
        n = q.popleft()
        if n in targets:
            path = [n]
            while prev[path[-1]] is not None:
                path.append(prev[path[-1]])
            return list(reversed(path))
        if n != src and nodes[n]["type"] != "gateway":
            continue
        for m, _ in _neighbours(links, n):
            if m not in prev:
                prev[m] = n
                q.append(m)
    return None


def _hop(links, a, b):
    """The link joining a and b and b's (address, a's interface) on it."""
    for l in links:
        if l["a"] == a and l["b"] == b:
            return l, l["addr_b"], l["if_a"]
        if l["b"] == a and l["a"] == b:
            return l, l["addr_a"], l["if_b"]
    raise ValueError(f"no link {a}-{b}")


def host_subnets(nodes, links):
    """Links with a host at one end (the prefixes end hosts live in)."""
    return [l for l in links if "host" in (nodes[l["a"]]["type"], nodes[l["b"]]["type"])]


def routes(nodes, links, tunnels):
    """Static routes per node: {node: [(subnet, via, dev)]} and tunnel routes per gateway:
    {gateway: [(subnet, peer)]}. A host subnet whose path from gateway A crosses A's tunnel
    peer B goes into the tunnel (no static route at A)."""
    peers = {}
    for t in tunnels or []:
        peers.setdefault(t["a"], []).append(t["b"])
        peers.setdefault(t["b"], []).append(t["a"])
    static = {n: [] for n in nodes}
    tun = {n: [] for n in nodes}
    hs = {l["subnet"] for l in host_subnets(nodes, links)}
    for n in nodes:
        for l in links:
            if n in (l["a"], l["b"]):
                continue
            path = shortest_path(nodes, links, n, l)
            if not path or len(path) < 2:
                continue
            crossed = [p for p in path[1:] if p in peers.get(n, [])]
            if l["subnet"] in hs and crossed:
                tun[n].append((l["subnet"], crossed[0]))
                continue
            _, via, dev = _hop(links, n, path[1])
            static[n].append((l["subnet"], via, dev))
    return static, tun


def endpoint(nodes, links, a, b):
    """The underlay address gateway `a` uses to reach gateway `b`: b's address on their shared
    link if they share one, else b's address on the first link whose path from a ends at b."""
    for l in links:
        if {l["a"], l["b"]} == {a, b}:
            return l["addr_b"] if l["b"] == b else l["addr_a"]
    for l in links:
        if b in (l["a"], l["b"]):
            path = shortest_path(nodes, links, a, l)
            if path and path[-1] == b:
                return l["addr_b"] if l["b"] == b else l["addr_a"]
    raise ValueError(f"gateway {b} unreachable from {a}")
