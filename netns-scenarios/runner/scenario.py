"""Scenario files: loading, validation, ${parameter} substitution and expansion into runs."""
import copy
import itertools
import re

import yaml

NODE_TYPES = ("host", "gateway")
VARIANTS = ("e2e", "tunnel")
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


def validate(sc):
    """Checks the structure of a scenario (names, node types, link ends, flows, variants)."""
    for key in ("name", "nodes", "links", "flows"):
        _require(key in sc, f"missing top-level key '{key}'")
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
        _require(f.get("type", "tcp") in ("tcp", "udp", "ping"), f"flow {f['name']}: bad type")
        for end in ("from", "to"):
            _require(f.get(end) in nodes, f"flow {f['name']}: unknown node '{f.get(end)}'")
    for v in sc.get("variants", ["e2e"]):
        _require(v in VARIANTS, f"variants: '{v}' is not e2e or tunnel")
    _require(sc.get("transport", "plain") in TRANSPORTS, "transport: plain, tcpnc or udt")
    link_names = {l.get("name", f"{l['a']}-{l['b']}") for l in sc["links"]}
    for i, e in enumerate(sc.get("events") or []):
        _require(e.get("link") in link_names, f"events[{i}].link: unknown link '{e.get('link')}'")
        _require("at" in e and "set" in e, f"events[{i}]: needs 'at' (seconds) and 'set' (settings)")
    for i, t in enumerate(sc.get("tunnels", [])):
        for end in ("a", "b"):
            _require(nodes.get(t.get(end), {}).get("type") == "gateway",
                     f"tunnels[{i}].{end}: must name a gateway")


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
    variants = overrides.get("variants") or sc.get("variants", ["e2e"])
    sweep = sc.get("sweep") or {}
    values = overrides.get("sweep_values") or sweep.get("values") or [None]
    reps = int(overrides.get("repetitions") or sc.get("repetitions", 1))
    base_seed = int(overrides.get("seed") if overrides.get("seed") is not None else sc.get("seed", 1))
    runs = []
    for (case, cparams), variant, value, rep in itertools.product(
            cases.items(), variants, values, range(reps)):
        params = dict(sc.get("parameters") or {})
        params.update(cparams or {})
        params.update(overrides.get("set") or {})
        if sweep.get("parameter") and value is not None:
            params[sweep["parameter"]] = value
        params["variant"] = variant
        body = {k: substitute(copy.deepcopy(sc.get(k)), params)
                for k in ("nodes", "links", "flows", "tcp", "tunnels", "gateway", "duration", "events")}
        runs.append({"case": case, "variant": variant, "sweep_value": value, "rep": rep,
                     "seed": base_seed + rep, "params": params, "body": body})
    return runs
