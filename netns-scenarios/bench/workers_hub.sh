#!/usr/bin/env bash
# Benchmark (not a test): what gateway.workers buys a hub with two peers, in one run.
#   h2 10.2.0.2 - gw2 =192.168.12.0/24= gw1 - h1 10.1.0.2
#   h3 10.3.0.2 - gw3 =192.168.13.0/24= gw1
# (veths with their default offloads, no emulator). gw1 has peers gw2 and gw3 on one UDP port;
# gw2 and gw3 one peer each (one worker). Two iperf3 TCP flows at once, h2 -> h1 and h3 -> h1
# (end hosts as Linux ships them), for each transport and security, gw1 with `workers: 1` and
# with `workers: 2`, alternated, REPS times. Prints per run: the sum of both flows' goodput, each
# flow's, and the CPU seconds per GB of goodput of gw1 alone and of all three gateways (utime +
# stime from /proc, every thread). On a machine whose cores also run the hosts and the other
# gateways (this one has two), the sum shows what the cores left over buy; CPU s/GB is the figure
# that carries over to a router where the gateway has its cores to itself.
# Usage: workers_hub.sh NCGW_BINARY [SECONDS] [REPS]   (as root; Release build)
set -euo pipefail
NCGW=$(realpath "$1")
SECONDS_PER_FLOW=${2:-8}
REPS=${3:-2}
VARIANTS=${VARIANTS:-"plain:none plain:aead tcpnc:none tcpnc:aead"}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
NS_PREFIX="wh$$"
WORK=$(mktemp -d)
source "$REPO/tests/netns/lib/netns.sh"
source "$REPO/tests/netns/lib/hub.sh"
trap 'rc=$?; ns_cleanup; rm -rf "$WORK"; exit $rc' EXIT

build_hub_topology

# cpu_ticks PID...: utime + stime of the processes (all their threads), in clock ticks.
cpu_ticks() {
  local t=0 p
  for p in "$@"; do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done
  echo "$t"
}

# config ME TUN WORKERS TRANSPORT SECURITY then "peer endpoint prefixes" triples: gateway ME's YAML.
config() {
  local me=$1 tun=$2 workers=$3 t=$4 sec=$5; shift 5
  local args=("$@") i p keys
  echo "gateway: {name: $NS_PREFIX-$me, private_key_file: $WORK/$me.key, workers: $workers}"
  echo "tun: {name: whtun0, addresses: [$tun]}"
  echo "peers:"
  for ((i = 0; i < ${#args[@]}; i += 3)); do
    keys="security: none"
    [ "$sec" = aead ] && keys="public_key: $(cat "$WORK/${args[i]}.pub")"
    echo "  - {name: ${args[i]}, endpoint: ${args[i+1]}, transport: $t, $keys}"
  done
  echo "routes:"
  for ((i = 0; i < ${#args[@]}; i += 3)); do
    for p in ${args[i+2]//,/ }; do echo "  - {prefix: $p, via: ${args[i]}}"; done
  done
  echo "logging: {level: warn}"
}

PORT=5600
# run TRANSPORT SECURITY WORKERS: start the three gateways, two flows at once, print a line, stop.
run() {
  local t=$1 sec=$2 w=$3 g
  config gw1 10.99.0.1/24 "$w" "$t" "$sec" gw2 192.168.12.2 10.2.0.0/24 gw3 192.168.13.2 10.3.0.0/24 > "$WORK/gw1.yaml"
  config gw2 10.99.0.2/24 1 "$t" "$sec" gw1 192.168.12.1 10.1.0.0/24 > "$WORK/gw2.yaml"
  config gw3 10.99.0.3/24 1 "$t" "$sec" gw1 192.168.13.1 10.1.0.0/24 > "$WORK/gw3.yaml"
  local pids=()
  for g in gw1 gw2 gw3; do
    ns_bg $g "$NCGW" run --config "$WORK/$g.yaml" > "$WORK/$g.log" 2>&1
    pids+=("$LAST_PID")
    WAIT_SECONDS=10 wait_for test -S "/run/ncgw/$NS_PREFIX-$g.sock" || fail "$g did not start: $(tail -3 "$WORK/$g.log")"
  done
  for h in h2 h3; do
    WAIT_SECONDS=15 wait_for nsx $h ping -c 1 -W 1 10.1.0.2 || fail "$t $sec: no ping $h -> h1: $(tail -n 3 "$WORK"/gw*.log)"
  done
  local p2=$((PORT += 1)) p3=$((PORT += 1))
  ns_bg h1 iperf3 -s -1 -p $p2 > /dev/null 2>&1
  ns_bg h1 iperf3 -s -1 -p $p3 > /dev/null 2>&1
  sleep 0.5
  local c0 c0all c1 c1all
  c0=$(cpu_ticks "${pids[0]}"); c0all=$(cpu_ticks "${pids[@]}")
  nsx h2 iperf3 -c 10.1.0.2 -p $p2 -t "$SECONDS_PER_FLOW" -O 1 -J > "$WORK/f2.json" &
  local a=$!
  nsx h3 iperf3 -c 10.1.0.2 -p $p3 -t "$SECONDS_PER_FLOW" -O 1 -J > "$WORK/f3.json" &
  local b=$!
  wait $a || fail "iperf3 h2 failed"
  wait $b || fail "iperf3 h3 failed"
  c1=$(cpu_ticks "${pids[0]}"); c1all=$(cpu_ticks "${pids[@]}")
  local status
  status=$("$NCGW" status --name "$NS_PREFIX-gw1" --json)
  /usr/bin/python3 - "$WORK/f2.json" "$WORK/f3.json" "$t" "$sec" "$w" $((c1 - c0)) $((c1all - c0all)) "$status" <<'PY'
import json, os, sys
f2, f3 = (json.load(open(p))["end"]["sum_received"] for p in sys.argv[1:3])
t, sec, w, gw1, allgw, status = sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]), int(sys.argv[7]), json.loads(sys.argv[8])
tck = os.sysconf("SC_CLK_TCK")
gb = (f2["bytes"] + f3["bytes"]) / 1e9
g2, g3 = f2["bits_per_second"] / 1e9, f3["bits_per_second"] / 1e9
c = status["counters"]
print(f"{t:<6} {sec:<5} workers {w}  sum {g2 + g3:6.3f} Gbit/s  (h2 {g2:.3f}, h3 {g3:.3f})  "
      f"cpu_s_per_GB gw1 {gw1 / tck / gb:5.2f}  all {allgw / tck / gb:5.2f}  "
      f"handed_over {c['handed_over']} drop_handoff {c['drop_handoff']}", flush=True)
PY
  for p in "${pids[@]}"; do kill "$p"; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}

echo "# workers_hub.sh $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null) $(date -u +%FT%TZ), ${SECONDS_PER_FLOW} s flows, $REPS reps, $(nproc) cores"
for rep in $(seq 1 "$REPS"); do
  for v in $VARIANTS; do
    if [ $((rep % 2)) = 1 ]; then order="1 2"; else order="2 1"; fi
    for w in $order; do run "${v%%:*}" "${v##*:}" "$w"; done
  done
done
