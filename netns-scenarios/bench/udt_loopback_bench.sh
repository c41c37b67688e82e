#!/usr/bin/env bash
# Benchmark (not a test): ncgw's UDT (ncgw-udt tool) vs the reference libudt 4.11 (udt_peer), one
# stream of BYTES over loopback each, run back to back in one invocation. Prints throughput and CPU
# seconds per GB (sender + receiver) for each; last line: ncgw_udt_gbps=X libudt_gbps=Y ratio=R.
# Usage: udt_loopback_bench.sh BUILD_DIR [BYTES]   (BUILD_DIR holds gateway/udt/ncgw-udt and
#        tests/interop/udt/udt_peer; a Release build). The machine's other load shows in the figures.
set -euo pipefail
B=$1
BYTES=${2:-1000000000}
TOOL=$(find "$B" -name ncgw-udt -type f -perm -u+x | head -1)
PEER=$(find "$B" -name udt_peer -type f -perm -u+x | head -1)
[ -x "$TOOL" ] && [ -x "$PEER" ] || { echo "ncgw-udt or udt_peer not found under $B" >&2; exit 2; }
DIR=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$DIR"' EXIT
PORT=$((40000 + RANDOM % 20000))
TIMEFMT="%e %U %S"

# ours: receiver (listener) to /dev/null, sender from /dev/zero through a pipe
/usr/bin/time -f "$TIMEFMT" -o "$DIR/ours_rx" "$TOOL" udt-recv --role listener --local 127.0.0.1:$PORT --file /dev/null -q &
RX=$!
sleep 0.3
/usr/bin/time -f "$TIMEFMT" -o "$DIR/ours_tx" bash -c "head -c $BYTES /dev/zero | '$TOOL' udt-send --peer 127.0.0.1:$PORT -q"
wait $RX

# libudt: their listener receives, their caller sends zeros (no checksum work)
/usr/bin/time -f "$TIMEFMT" -o "$DIR/lib_rx" "$PEER" role=listener type=stream dir=recv bytes=$BYTES nocheck=1 > "$DIR/lib_rx.out" &
RX=$!
for _ in $(seq 50); do grep -q '^port=' "$DIR/lib_rx.out" 2>/dev/null && break; sleep 0.1; done
LPORT=$(sed -n 's/^port=//p' "$DIR/lib_rx.out")
/usr/bin/time -f "$TIMEFMT" -o "$DIR/lib_tx" "$PEER" role=caller peer=127.0.0.1:$LPORT type=stream dir=send bytes=$BYTES nocheck=1 > /dev/null
wait $RX

report() {  # name rx_file tx_file -> prints a line, echoes gbps
  read -r rx_e rx_u rx_s < <(tail -1 "$2")
  read -r tx_e tx_u tx_s < <(tail -1 "$3")
  awk -v n="$1" -v b="$BYTES" -v e="$rx_e" -v c="$rx_u $rx_s $tx_u $tx_s" 'BEGIN {
    split(c, x, " "); cpu = x[1] + x[2] + x[3] + x[4];
    printf "%s: %.2f s, %.3f Gbit/s, CPU %.2f s per GB (sender+receiver)\n", n, e, b * 8 / e / 1e9, cpu / (b / 1e9) > "/dev/stderr";
    printf "%.3f\n", b * 8 / e / 1e9 }'
}
OURS=$(report "ncgw_udt" "$DIR/ours_rx" "$DIR/ours_tx")
LIB=$(report "libudt  " "$DIR/lib_rx" "$DIR/lib_tx")
awk -v a="$OURS" -v b="$LIB" 'BEGIN { printf "ncgw_udt_gbps=%.3f libudt_gbps=%.3f ratio=%.2f\n", a, b, a / b }'
