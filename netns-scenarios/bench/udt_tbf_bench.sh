#!/usr/bin/env bash
# Benchmark (not a test; issue 6): ncgw's UDT (ncgw-udt tool) vs the reference libudt 4.11
# (udt_ns_peer, tests/netns/udt) over a TBF-shaped veth link between two namespaces, one stream of
# BYTES each, back to back in one invocation (ours first, then libudt).
#   a 192.168.79.1 -- veth, tbf RATE on both egresses -- 192.168.79.2 b
# Prints throughput (receiver's wall clock, from its start to the last byte) and CPU seconds per GB
# (sender + receiver, user + system; and each side) for each; last line: ncgw_udt_gbps=X libudt_gbps=Y ratio=R.
# FROM_FILE=1: ncgw-udt sends a file of zeros (--file) instead of reading a pipe on stdin.
# Usage: udt_tbf_bench.sh BUILD_DIR [BYTES] [RATE]   (as root; BUILD_DIR holds ncgw-udt and
#        udt_ns_peer, a Release build; defaults 500000000 bytes, 1gbit). The machine's other load
#        shows in the figures: compare only figures of the same run.
set -euo pipefail
B=$1
BYTES=${2:-500000000}
RATE=${3:-1gbit}
BURST=${BURST:-256kb}
TOOL=$(find "$B" -name ncgw-udt -type f -perm -u+x | head -1)
PEER=$(find "$B" -name udt_ns_peer -type f -perm -u+x | head -1)
[ -x "$TOOL" ] && [ -x "$PEER" ] || { echo "ncgw-udt or udt_ns_peer not found under $B" >&2; exit 2; }
REPO=$(cd "$(dirname "$0")/../.." && pwd)
NS_PREFIX="ub$$"
DIR=$(mktemp -d)
source "$REPO/tests/netns/lib/netns.sh"
trap 'rc=$?; ns_cleanup; rm -rf "$DIR"; exit $rc' EXIT
TIMEFMT="%e %U %S"

ns_add a; ns_add b
veth_link a eth0 b eth0 192.168.79.1/24 192.168.79.2/24
for n in a b; do
  nsx $n sysctl -qw net.ipv6.conf.all.disable_ipv6=1
  nsx $n tc qdisc add dev eth0 root tbf rate "$RATE" burst "$BURST" latency 20ms
done
WAIT_SECONDS=5 wait_for nsx a ping -c 1 -W 1 192.168.79.2 || fail "no ping a -> b"
echo "== $(date -u +%FT%TZ) a -> b over veth, tbf rate $RATE burst $BURST latency 20ms on both egresses, $BYTES bytes per run"

# ours: receiver (listener) in b to /dev/null, sender in a from /dev/zero through a pipe
ns_bg b /usr/bin/time -f "$TIMEFMT" -o "$DIR/ours_rx" "$TOOL" udt-recv --role listener \
  --local 192.168.79.2:9300 --file /dev/null --timeout 300 2> "$DIR/ours_rx.err"
RX=$LAST_PID
sleep 0.3
if [ "${FROM_FILE:-0}" = 1 ]; then  # FROM_FILE=1: ncgw-udt reads a file of zeros instead of a pipe
  head -c "$BYTES" /dev/zero > "$DIR/zeros"
  nsx a /usr/bin/time -f "$TIMEFMT" -o "$DIR/ours_tx" "$TOOL" udt-send --role caller \
    --peer 192.168.79.2:9300 --file "$DIR/zeros" --timeout 300
else
  nsx a /usr/bin/time -f "$TIMEFMT" -o "$DIR/ours_tx" bash -c \
    "head -c $BYTES /dev/zero | '$TOOL' udt-send --role caller --peer 192.168.79.2:9300 --timeout 300"
fi
wait $RX

# libudt: their listener in b receives, their caller in a sends zeros (no checksum work)
ns_bg b /usr/bin/time -f "$TIMEFMT" -o "$DIR/lib_rx" "$PEER" role=listener local=192.168.79.2:9301 dir=recv \
  bytes=$BYTES nocheck=1 > "$DIR/lib_rx.out"
RXL=$LAST_PID
sleep 0.3
nsx a /usr/bin/time -f "$TIMEFMT" -o "$DIR/lib_tx" "$PEER" role=caller local=192.168.79.1 \
  peer=192.168.79.2:9301 dir=send bytes=$BYTES nocheck=1 > "$DIR/lib_tx.out"
wait $RXL

report() {  # name rx_file tx_file -> prints a line on stderr, echoes gbps
  read -r rx_e rx_u rx_s < <(tail -1 "$2")
  read -r tx_e tx_u tx_s < <(tail -1 "$3")
  awk -v n="$1" -v b="$BYTES" -v e="$rx_e" -v c="$rx_u $rx_s $tx_u $tx_s" 'BEGIN {
    split(c, x, " "); cpu = x[1] + x[2] + x[3] + x[4];
    printf "%s: %.2f s, %.3f Gbit/s, CPU %.2f s per GB (sender+receiver; sender %.2f, receiver %.2f)\n", n, e, b * 8 / e / 1e9, cpu / (b / 1e9), (x[3] + x[4]) / (b / 1e9), (x[1] + x[2]) / (b / 1e9) > "/dev/stderr";
    printf "%.3f\n", b * 8 / e / 1e9 }'
}
OURS=$(report "ncgw_udt" "$DIR/ours_rx" "$DIR/ours_tx")
LIB=$(report "libudt  " "$DIR/lib_rx" "$DIR/lib_tx")
awk -v a="$OURS" -v b="$LIB" 'BEGIN { printf "ncgw_udt_gbps=%.3f libudt_gbps=%.3f ratio=%.2f\n", a, b, a / b }'
