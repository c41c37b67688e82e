#!/usr/bin/env bash
# netns test: `ncgw run` shuts down cleanly on SIGTERM and on SIGINT: exit status 0, the
# kernel routes it installed are gone, the TUN device is removed or kept as tun.on_exit says, the
# control socket /run/ncgw/NAME.sock is gone, and the final counters are logged. While it runs it
# is unprivileged (gateway.user auto: user ncgw or nobody, only CAP_NET_ADMIN and
# CAP_NET_BIND_SERVICE, no_new_privs) and its control socket has mode 0660, so everything checked
# at shutdown was done without root.
# Usage: clean_shutdown.sh /path/to/ncgw
set -euo pipefail
NCGW=$(realpath "$1")
HERE=$(cd "$(dirname "$0")/.." && pwd)
NS_PREFIX="sd$$"
WORK=$(mktemp -d)
source "$HERE/lib/netns.sh"
source "$HERE/lib/ncgw.sh"
trap 'rc=$?; ns_cleanup; rm -rf "$WORK"; exit $rc' EXIT

ns_add gw
ns_add peer
veth_link gw wan0 peer wan0 192.168.50.1/24 192.168.50.2/24

# Writes the config of case $1 with tun.on_exit $2 to $WORK/$1.yaml.
write_config() {
  [ -f "$WORK/gw.key" ] || make_gateway_key gw
  [ -f "$WORK/far.key" ] || make_gateway_key far
  cat > "$WORK/$1.yaml" <<YAML
gateway:
  name: ${NS_PREFIX}-$1
  private_key_file: $WORK/gw.key
tun:
  name: sdtun0
  addresses: [10.98.0.1/30]
  on_exit: $2
peers:
  - {name: ${NS_PREFIX}-far, endpoint: 192.168.50.2, transport: plain, public_key: $(cat "$WORK/far.pub")}
routes:
  - {prefix: 10.50.0.0/24, via: ${NS_PREFIX}-far}
  - {prefix: 10.51.0.0/24, via: ${NS_PREFIX}-far}
logging:
  level: info
YAML
}

# Number of routes through sdtun0 for the configured prefixes.
tunnel_routes() { ip -n "$NS_PREFIX-gw" route show | grep -cE '^10\.5[01]\.0\.0/24 dev sdtun0' || true; }

# Runs case $1: start with tun.on_exit $3, send signal $2, check what is left.
shutdown_case() {
  local name="$1" signal="$2" on_exit="$3" pid rc sock="/run/ncgw/${NS_PREFIX}-$1.sock"
  echo "== SIGTERM/SIGINT case '$name': signal $signal, tun.on_exit $on_exit"
  write_config "$name" "$on_exit"
  ns_bg gw "$NCGW" run --config "$WORK/$name.yaml" 2> "$WORK/$name.log"
  pid=$LAST_PID
  wait_for test -S "$sock" || fail "gateway did not start: $(cat "$WORK/$name.log")"
  [ "$(tunnel_routes)" = 2 ] || fail "expected 2 routes through sdtun0 while running, got $(tunnel_routes)"
  check_unprivileged "$pid" "$WORK/$name.log" "$sock"
  nsx gw ping -c 3 -i 0.2 -W 1 10.50.0.9 >/dev/null 2>&1 || true   # 3 packets into the tunnel
  kill -s "$signal" "$pid"
  rc=0
  wait "$pid" || rc=$?
  echo "exit status $rc; log tail:"
  tail -3 "$WORK/$name.log"
  [ "$rc" = 0 ] || fail "exit status $rc after $signal, expected 0"
  [ "$(tunnel_routes)" = 0 ] || fail "$(tunnel_routes) route(s) through sdtun0 left after shutdown"
  [ ! -e "$sock" ] || fail "control socket $sock left behind"
  if [ "$on_exit" = keep ]; then
    ip -n "$NS_PREFIX-gw" link show sdtun0 >/dev/null 2>&1 || fail "tun.on_exit keep, but sdtun0 is gone"
  else
    ip -n "$NS_PREFIX-gw" link show sdtun0 >/dev/null 2>&1 && fail "tun.on_exit remove, but sdtun0 is still there"
  fi
  grep -q "signal .*shutting down" "$WORK/$name.log" || fail "no shutdown message logged"
  final_counters_logged "$WORK/$name.log"
}

# Checks that process $1 (log $2, control socket $3) has dropped root: not uid 0, exactly
# CAP_NET_ADMIN (12) and CAP_NET_BIND_SERVICE (10) permitted and effective, no_new_privs.
check_unprivileged() {
  wait_for grep -q "running as" "$2" || fail "no 'running as' line: $(cat "$2")"
  local uid caps nnp mode
  uid=$(awk '/^Uid:/ {print $3}' "/proc/$1/status")
  caps=$(awk '/^CapPrm:|^CapEff:|^CapInh:|^CapAmb:/ {printf "%s ", $2}' "/proc/$1/status")
  nnp=$(awk '/^NoNewPrivs:/ {print $2}' "/proc/$1/status")
  mode=$(stat -c %a "$3")
  echo "running as uid $uid; capabilities (inh prm eff amb) $caps; no_new_privs $nnp; control socket mode $mode"
  [ "$uid" != 0 ] || fail "the daemon still runs as root"
  [ "$caps" = "0000000000000000 0000000000001400 0000000000001400 0000000000000000 " ] ||
    fail "capabilities $caps, expected only NET_ADMIN and NET_BIND_SERVICE"
  [ "$nnp" = 1 ] || fail "no_new_privs not set"
  [ "$mode" = 660 ] || fail "control socket mode $mode, expected 660"
}

# Checks that log $1 holds the final counters as JSON, with the 3 pinged packets read from the TUN.
final_counters_logged() {
  /usr/bin/python3 - "$1" <<'PY' || fail "final counters not logged (or without the pinged packets)"
import json, sys
lines = [l for l in open(sys.argv[1]) if "final counters: " in l]
doc = json.loads(lines[-1].split("final counters: ", 1)[1])
c = doc["counters"]
print("final counters: tun_rx_packets", c["tun_rx_packets"], "datagrams_out", doc["peers"][0]["datagrams_out"],
      "udp send_errors", sum(p["send_errors"] for p in doc["ports"]))
sys.exit(0 if c["tun_rx_packets"] >= 3 else 1)
PY
}

shutdown_case term TERM remove
shutdown_case int INT keep
ip -n "$NS_PREFIX-gw" link del sdtun0   # the kept device
echo "PASS"
