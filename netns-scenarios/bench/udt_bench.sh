#!/usr/bin/env bash
# Benchmark (not a test): ncgw's UDT (the ncgw-udt tool) against the reference libudt 4.11
# (udt_peer, tests/interop/udt), one stream of BYTES each way a -> b, in one invocation:
#   1. loopback: 127.0.0.1, ours then libudt;
#   2. tbf: two namespaces joined by a veth pair, tbf RATE (burst BURST, latency 20ms) on both
#      egresses, ours then libudt.
# For each run: throughput (receiver's wall clock, start to last byte) and CPU seconds per GB
# (user + system, sender + receiver, and each side). The payload is zeros with no checksum work on
# either side. One line per scenario "SCENARIO: ncgw_udt_gbps=X libudt_gbps=Y ratio=R"; the last
# line repeats the loopback figures exactly as "ncgw_udt_gbps=X libudt_gbps=Y ratio=R" (loopback is
# the CPU-bound case; over tbf both should reach the shaped rate).
# Usage: udt_bench.sh BUILD_DIR [BYTES] [RATE]   (as root for the tbf part; BUILD_DIR holds ncgw-udt
#        and udt_peer, a Release build; defaults 1000000000 bytes, 1gbit). SKIP_TBF=1: loopback only.
#        FROM_FILE=1: ncgw-udt sends a file of zeros (--file) instead of reading a stdin pipe.
#        The machine's other load shows in the figures: compare only figures of the same run.
set -euo pipefail
B=$1
BYTES=${2:-1000000000}
RATE=${3:-1gbit}
BURST=${BURST:-256kb}
TOOL=$(find "$B" -name ncgw-udt -type f -perm -u+x | head -1)
PEER=$(find "$B" -name udt_peer -type f -perm -u+x | head -1)
[ -x "$TOOL" ] && [ -x "$PEER" ] || { echo "ncgw-udt or udt_peer not found under $B" >&2; exit 2; }
REPO=$(cd "$(dirname "$0")/../.." && pwd)
NS_PREFIX="ub$$"
DIR=$(mktemp -d)
source "$REPO/tests/netns/lib/netns.sh"
trap 'rc=$?; kill $(jobs -p) 2>/dev/null || true; ns_cleanup; rm -rf "$DIR"; exit $rc' EXIT
TIMEFMT="%e %U %S"

# run_pair TAG RX_NS TX_NS RX_ADDR PORT: ours, then libudt, receiver in RX_NS, sender in TX_NS
# ("" = no namespace); writes $DIR/TAG_{ours,lib}_{rx,tx} (elapsed user system).
in_ns() { local ns=$1; shift; if [ -n "$ns" ]; then nsx "$ns" "$@"; else "$@"; fi; }
run_pair() {
  local tag=$1 rxns=$2 txns=$3 addr=$4 port=$5
  in_ns "$rxns" /usr/bin/time -f "$TIMEFMT" -o "$DIR/${tag}_ours_rx" "$TOOL" udt-recv --role listener \
    --local "$addr:$port" --file /dev/null --timeout 300 -q &
  local rx=$!
  sleep 0.3
  if [ "${FROM_FILE:-0}" = 1 ]; then  # ncgw-udt reads a file of zeros instead of a stdin pipe
    [ -f "$DIR/zeros" ] || head -c "$BYTES" /dev/zero > "$DIR/zeros"
    in_ns "$txns" /usr/bin/time -f "$TIMEFMT" -o "$DIR/${tag}_ours_tx" "$TOOL" udt-send --role caller \
      --peer "$addr:$port" --file "$DIR/zeros" --timeout 300 -q
  else
    in_ns "$txns" /usr/bin/time -f "$TIMEFMT" -o "$DIR/${tag}_ours_tx" bash -c \
      "head -c $BYTES /dev/zero | '$TOOL' udt-send --role caller --peer $addr:$port --timeout 300 -q"
  fi
  wait $rx
  in_ns "$rxns" /usr/bin/time -f "$TIMEFMT" -o "$DIR/${tag}_lib_rx" "$PEER" role=listener local="$addr:$((port + 1))" \
    type=stream dir=recv bytes="$BYTES" nocheck=1 > "$DIR/${tag}_lib_rx.out" &
  rx=$!
  WAIT_SECONDS=5 wait_for grep -q '^port=' "$DIR/${tag}_lib_rx.out" || fail "libudt listener did not bind"
  local local_arg=""
  [ "$addr" != 127.0.0.1 ] && local_arg="local=192.168.79.1"
  in_ns "$txns" /usr/bin/time -f "$TIMEFMT" -o "$DIR/${tag}_lib_tx" "$PEER" role=caller ${local_arg:+"$local_arg"} \
    peer="$addr:$((port + 1))" type=stream dir=send bytes="$BYTES" nocheck=1 > /dev/null
  wait $rx
}

report() {  # name rx_file tx_file -> prints a line on stderr, echoes gbps
  read -r rx_e rx_u rx_s < <(tail -1 "$2")
  read -r _ tx_u tx_s < <(tail -1 "$3")
  awk -v n="$1" -v b="$BYTES" -v e="$rx_e" -v c="$rx_u $rx_s $tx_u $tx_s" 'BEGIN {
    split(c, x, " "); gb = b / 1e9;
    printf "%s: %.2f s, %.3f Gbit/s, CPU %.2f s per GB (sender %.2f, receiver %.2f)\n", n, e, b * 8 / e / 1e9,
           (x[1] + x[2] + x[3] + x[4]) / gb, (x[3] + x[4]) / gb, (x[1] + x[2]) / gb > "/dev/stderr";
    printf "%.3f\n", b * 8 / e / 1e9 }'
}
summary() {  # tag -> "ncgw_udt_gbps=X libudt_gbps=Y ratio=R"
  local ours lib
  ours=$(report "$1 ncgw_udt" "$DIR/$1_ours_rx" "$DIR/$1_ours_tx")
  lib=$(report "$1 libudt  " "$DIR/$1_lib_rx" "$DIR/$1_lib_tx")
  awk -v a="$ours" -v b="$lib" 'BEGIN { printf "ncgw_udt_gbps=%.3f libudt_gbps=%.3f ratio=%.2f\n", a, b, a / b }'
}

echo "== $(date -u +%FT%TZ) $BYTES bytes per run; load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "== loopback (127.0.0.1)" >&2
run_pair loop "" "" 127.0.0.1 $((40000 + RANDOM % 20000))
LOOP=$(summary loop)
echo "loopback: $LOOP"

if [ "${SKIP_TBF:-0}" != 1 ]; then
  ns_add a; ns_add b
  veth_link a eth0 b eth0 192.168.79.1/24 192.168.79.2/24
  for n in a b; do
    nsx $n sysctl -qw net.ipv6.conf.all.disable_ipv6=1
    nsx $n tc qdisc add dev eth0 root tbf rate "$RATE" burst "$BURST" latency 20ms
  done
  WAIT_SECONDS=5 wait_for nsx a ping -c 1 -W 1 192.168.79.2 || fail "no ping a -> b"
  echo "== tbf: veth a -> b, tbf rate $RATE burst $BURST latency 20ms on both egresses" >&2
  run_pair tbf b a 192.168.79.2 9300
  echo "tbf: $(summary tbf)"
fi
echo "$LOOP"
