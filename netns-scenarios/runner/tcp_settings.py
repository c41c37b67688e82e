"""Per-host TCP settings: scenario keys -> namespace sysctls and route attributes."""

# Scenario key -> (sysctl, value mapper). A NewReno-like Linux host (paper 002) turns off SACK,
# F-RTO, RACK, TLP, window scaling and timestamps (docs/traps.md).
_SYSCTLS = {
    "congestion_control": ("net.ipv4.tcp_congestion_control", str),
    "window_scaling": ("net.ipv4.tcp_window_scaling", lambda v: int(bool(v))),
    "timestamps": ("net.ipv4.tcp_timestamps", lambda v: int(bool(v))),
    "sack": ("net.ipv4.tcp_sack", lambda v: int(bool(v))),
    "dsack": ("net.ipv4.tcp_dsack", lambda v: int(bool(v))),
    "frto": ("net.ipv4.tcp_frto", lambda v: 2 if v else 0),
    "rack": ("net.ipv4.tcp_recovery", lambda v: 1 if v else 0),
    "tlp": ("net.ipv4.tcp_early_retrans", lambda v: 3 if v else 0),
    "ecn": ("net.ipv4.tcp_ecn", lambda v: int(bool(v))),
    "rmem": ("net.ipv4.tcp_rmem", str),
    "wmem": ("net.ipv4.tcp_wmem", str),
    "slow_start_after_idle": ("net.ipv4.tcp_slow_start_after_idle", lambda v: int(bool(v))),
}
# Scenario key -> `ip route` attribute.
_ROUTE_ATTRS = {"mss": "advmss", "initcwnd": "initcwnd", "initrwnd": "initrwnd"}
KNOWN = set(_SYSCTLS) | set(_ROUTE_ATTRS)


def merged(body, node):
    """The TCP settings of `node`: scenario-wide `tcp`, then the node's own `tcp` on top."""
    s = dict(body.get("tcp") or {})
    s.update((body["nodes"][node] or {}).get("tcp") or {})
    unknown = set(s) - KNOWN
    if unknown:
        raise ValueError(f"node {node}: unknown tcp setting(s) {sorted(unknown)}")
    return s


def sysctls(settings):
    """Sysctl dict for the settings (always disabling cached metrics between runs)."""
    out = {"net.ipv4.tcp_no_metrics_save": 1}
    for k, v in settings.items():
        if k in _SYSCTLS:
            name, f = _SYSCTLS[k]
            out[name] = f(v)
    return out


def route_attrs(settings):
    """Extra `ip route` words (e.g. ['advmss', '1000', 'initcwnd', '2'])."""
    out = []
    for k, attr in _ROUTE_ATTRS.items():
        if k in settings:
            out += [attr, str(settings[k])]
    return out
