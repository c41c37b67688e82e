"""Scenario files: loading, validation, ${parameter} substitution and expansion into runs."""
import ast
import copy
import itertools
import operator
import re

import yaml

NODE_TYPES = ("host", "gateway")
VARIANTS = ("e2e", "tunnel", "openvpn-tcp")   # variant kinds; a named variant has one of them
TRANSPORTS = ("plain", "tcpnc", "udt")
_PARAM = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


class ScenarioError(Exception):
    """A scenario file that cannot be run, with a message naming the problem."""


def load(path):
    """Reads and validates a scenario YAML file; returns the raw dict."""
    with open(path) as f:
        sc = yaml.safe_load(f)
    if not isinstance(sc, dict):
        raise ScenarioError(f"{path}: not a mapping")
    validate(sc)
    return sc


def _require(cond, msg):
    """Raises ScenarioError(msg) unless cond."""
    if not cond:
        raise ScenarioError(msg)


# Every top-level key a scenario may have: anything else is a typo that would be ignored silently
# (e.g. `tcpnc:` at the top instead of under `gateway:`).
TOP_KEYS = ("name", "nodes", "links", "flows", "variants", "transport", "repetitions", "seed",
            "parameters", "cases", "sweep", "duration", "tunnels", "gateway", "openvpn", "tcp",
            "events", "timeseries", "status_samples", "tcp_samples")


def validate(sc):
    """Checks the structure of a scenario (names, node types, link ends, flows, variants)."""
    for key in ("name", "nodes", "links", "flows"):
        _require(key in sc, f"missing top-level key '{key}'")
    for key in sc:
        _require(key in TOP_KEYS, f"unknown top-level key '{key}' (known: {', '.join(TOP_KEYS)})")
    nodes = sc["nodes"]
    _require(isinstance(nodes, dict) and nodes, "nodes: expected a mapping of node names")
    for n, spec in nodes.items():
        _require(re.fullmatch(r"[a-z][a-z0-9]{0,7}", n), f"node name '{n}': a-z0-9, at most 8 chars")
        _require((spec or {}).get("type") in NODE_TYPES, f"node {n}: type must be host or gateway")
    for i, l in enumerate(sc["links"]):
        for end in ("a", "b"):
            _require(l.get(end) in nodes, f"links[{i}].{end}: unknown node '{l.get(end)}'")
    names = set()
    for i, f in enumerate(sc["flows"]):
        _require(f.get("name") and f["name"] not in names, f"flows[{i}]: missing or duplicate name")
        names.add(f["name"])
        _require(f.get("type", "tcp") in ("tcp", "udp", "ping", "http"), f"flow {f['name']}: bad type")
        for end in ("from", "to"):
            _require(f.get(end) in nodes, f"flow {f['name']}: unknown node '{f.get(end)}'")
        if "repeat" in f:
            _require(f.get("type") == "http" and str(f["repeat"]).isdigit() and int(f["repeat"]) >= 1,
                     f"flow {f['name']}: repeat (downloads one after another) is for http flows, at least 1")
    for v in sc.get("variants", ["e2e"]):
        _require(variant_kind(v) in VARIANTS,
                 f"variants: '{v}': kind must be one of {', '.join(VARIANTS)}")
    _require(sc.get("transport", "plain") in TRANSPORTS, "transport: plain, tcpnc or udt")
    link_names = {l.get("name", f"{l['a']}-{l['b']}") for l in sc["links"]}
    for i, e in enumerate(sc.get("events") or []):
        _require(e.get("link") in link_names, f"events[{i}].link: unknown link '{e.get('link')}'")
        _require("at" in e and "set" in e, f"events[{i}]: needs 'at' (seconds) and 'set' (settings)")
    for i, t in enumerate(sc.get("tunnels", [])):
        for end in ("a", "b"):
            _require(nodes.get(t.get(end), {}).get("type") == "gateway",
                     f"tunnels[{i}].{end}: must name a gateway")


def variant_name(v):
    """Name of a `variants` entry: a kind (`e2e`) or a mapping {name, kind, set: {params}}."""
    return v["name"] if isinstance(v, dict) else v


def variant_kind(v):
    """Kind of a `variants` entry (e2e | tunnel | openvpn-tcp)."""
    return v.get("kind", v.get("name")) if isinstance(v, dict) else v


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv, ast.Pow: operator.pow, ast.USub: operator.neg}


def arith(text):
    """Value of an arithmetic expression of numbers, + - * / ** and parentheses (no names)."""
    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)):
            return n.value
        if isinstance(n, ast.BinOp) and type(n.op) in _OPS:
            return _OPS[type(n.op)](ev(n.left), ev(n.right))
        if isinstance(n, ast.UnaryOp) and type(n.op) in _OPS:
            return _OPS[type(n.op)](ev(n.operand))
        raise ScenarioError(f"parameter expression '{text}': only numbers and + - * / ** ( )")
    return ev(ast.parse(text, mode="eval"))


def resolve_params(params):
    """Parameters may refer to parameters (`${loss}`), and a string value starting with '='
    is arithmetic once its references are substituted (e.g. "=${loss} / 3 / (1 - ${loss})").
    Returns the resolved dict; plain values are left as they are."""
    out = dict(params)
    for _ in range(8):
        changed = False
        for k, v in out.items():
            if isinstance(v, str) and _PARAM.search(v):
                refs = set(_PARAM.findall(v))
                if not any(isinstance(out.get(r), str) and (_PARAM.search(out[r]) or out[r].startswith("="))
                           for r in refs if r != k):
                    out[k] = substitute(v, out)
                    changed = True
            elif isinstance(v, str) and v.startswith("="):
                out[k] = arith(v[1:])
                changed = True
        if not changed:
            break
    return out


def substitute(value, params):
    """Replaces ${name} in every string of `value` (a whole-string reference keeps the type)."""
    if isinstance(value, str):
        m = _PARAM.fullmatch(value)
        if m:
            _require(m.group(1) in params, f"unknown parameter ${{{m.group(1)}}}")
            return params[m.group(1)]

        def one(mm):
            _require(mm.group(1) in params, f"unknown parameter ${{{mm.group(1)}}}")
            return str(params[mm.group(1)])
        return _PARAM.sub(one, value)
    if isinstance(value, list):
        return [substitute(v, params) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, params) for k, v in value.items()}
    return value


def expand(sc, overrides):
    """Lists every run of the scenario as dicts: case, variant, sweep value, repetition, seed,
    the parameters, and the scenario body with parameters substituted."""
    cases = sc.get("cases") or {"default": {}}
    if overrides.get("cases"):
        missing = [c for c in overrides["cases"] if c not in cases]
        _require(not missing, f"unknown case(s) {missing}; have {list(cases)}")
        cases = {c: cases[c] for c in overrides["cases"]}
    declared = {variant_name(v): v for v in sc.get("variants", ["e2e"])}
    wanted = overrides.get("variants") or list(declared)
    for v in wanted:
        _require(v in declared or v in VARIANTS, f"unknown variant '{v}'; have {list(declared)}")
    variants = [declared.get(v, v) for v in wanted]
    sweep = sc.get("sweep") or {}
    values = overrides.get("sweep_values") or sweep.get("values") or [None]
    reps = int(overrides.get("repetitions") or sc.get("repetitions", 1))
    base_seed = int(overrides.get("seed") if overrides.get("seed") is not None else sc.get("seed", 1))
    runs = []
    for (case, cparams), vspec, value, rep in itertools.product(
            cases.items(), variants, values, range(reps)):
        variant, kind = variant_name(vspec), variant_kind(vspec)
        params = dict(sc.get("parameters") or {})
        params.update(cparams or {})
        if isinstance(vspec, dict):
            params.update(vspec.get("set") or {})
        params.update(overrides.get("set") or {})
        if sweep.get("parameter") and value is not None:
            params[sweep["parameter"]] = value
        params["variant"] = variant
        params = resolve_params(params)
        body = {k: substitute(copy.deepcopy(sc.get(k)), params)
                for k in ("nodes", "links", "flows", "tcp", "tunnels", "gateway", "duration", "events",
                          "openvpn", "timeseries", "status_samples", "tcp_samples")}
        runs.append({"case": case, "variant": variant, "kind": kind, "sweep_value": value, "rep": rep,
                     "seed": base_seed + rep, "params": params, "body": body})
    return runs
