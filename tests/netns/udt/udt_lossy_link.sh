#!/usr/bin/env bash
# netns test: 10 MB streams over UDT through linkem with 2% Bernoulli loss in both
# directions (data and control), 10 ms each way, RATE, checksums equal at both ends:
#   1. ncgw-udt caller sends -> ncgw-udt listener receives (a random 10 MB file; sha256)
#   2. libudt caller sends   -> ncgw-udt listener receives (libudt's generated stream; FNV checksum)
#   3. ncgw-udt caller sends -> libudt listener receives  (the file of 2; FNV checksum)
# and linkem must have dropped ~2% of the frames in each direction (the loss really happened).
# The ncgw-udt receivers are given the length (--bytes): UDT4 sends its shutdown once, unacknowledged,
# so with 2% loss a receiver that waits for it sometimes sees the connection break instead.
#   a 192.168.78.1 -- [L: linkem] -- 192.168.78.2 b
# Usage: udt_lossy_link.sh /path/to/ncgw-udt /path/to/linkem /path/to/udt_peer
set -euo pipefail
TOOL=$(realpath "$1")
LINKEM=$(realpath "$2")
PEER=$(realpath "$3")
LOSS=${LOSS:-0.02}
RATE=${RATE:-100mbit}
BYTES=${BYTES:-10485760}
SEED=${SEED:-1}
HERE=$(cd "$(dirname "$0")/.." && pwd)
NS_PREFIX="tu$$"
WORK=$(mktemp -d)
source "$HERE/lib/netns.sh"
trap 'rc=$?; ns_cleanup; rm -rf "$WORK"; exit $rc' EXIT

for n in a L b; do ns_add $n; done
ip link add eth0 netns "$NS_PREFIX-a" type veth peer name la netns "$NS_PREFIX-L"
ip link add lb netns "$NS_PREFIX-L" type veth peer name eth0 netns "$NS_PREFIX-b"
nsx a ip addr add 192.168.78.1/24 dev eth0
nsx b ip addr add 192.168.78.2/24 dev eth0
for x in "a eth0" "b eth0" "L la" "L lb"; do set -- $x; nsx "$1" ip link set "$2" up; done
for x in a b; do
  nsx $x ethtool -K eth0 tx off tso off gso off gro off >/dev/null 2>&1 || true
  nsx $x sysctl -qw net.ipv6.conf.all.disable_ipv6=1
done
nsx L ethtool -K la gro off lro off >/dev/null 2>&1 || true
nsx L ethtool -K lb gro off lro off >/dev/null 2>&1 || true
LSOCK="$WORK/linkem.sock"
ns_bg L "$LINKEM" run --a la --b lb --seed "$SEED" --control "$LSOCK" \
  --both "delay=10ms rate=$RATE limit=1000p loss=bernoulli:$LOSS" > "$WORK/linkem.out" 2>&1
WAIT_SECONDS=5 wait_for "$LINKEM" ctl --socket "$LSOCK" stats || fail "linkem did not start: $(cat "$WORK/linkem.out")"
echo "== a - [linkem: $RATE, 10 ms each way, Bernoulli loss $LOSS both directions, seed $SEED] - b; $BYTES bytes per transfer"
WAIT_SECONDS=10 wait_for nsx a ping -c 1 -W 1 192.168.78.2 || fail "no ping a -> b"

head -c "$BYTES" /dev/urandom > "$WORK/random.bin"
PORT=9100

echo "== 1. ncgw-udt -> ncgw-udt"
PORT=$((PORT + 1))
ns_bg b "$TOOL" udt-recv --role listener --local 192.168.78.2:$PORT --file "$WORK/got1.bin" --bytes "$BYTES" --timeout 90
RX=$LAST_PID
sleep 0.3
start=$(date +%s.%N)
nsx a "$TOOL" udt-send --role caller --peer 192.168.78.2:$PORT --file "$WORK/random.bin" --timeout 90 \
  || fail "ncgw-udt send failed"
wait "$RX" || fail "ncgw-udt receive failed"
echo "   $(/usr/bin/python3 -c "print(f'{$BYTES*8/($(date +%s.%N)-$start)/1e6:.1f}')") Mbit/s wall clock"
a=$(sha256sum < "$WORK/random.bin" | cut -d' ' -f1); b=$(sha256sum < "$WORK/got1.bin" | cut -d' ' -f1)
echo "   sent sha256 $a"
echo "   got  sha256 $b"
[ "$a" = "$b" ] || fail "transfer 1: checksums differ"

# One libudt caller -> ncgw-udt listener transfer on port $1; returns non-zero with the reason in
# $WORK/why2 when libudt fails. Seen twice in about 70 transfers (never reproduced on demand):
# libudt's blocking connect returned and its first send said "Connection does not exist". The
# likely cause, our listener's keep-alive reaching the caller before its handshake completed, is
# mended (docs/udt-wire.md, "Listener EXP before the caller is heard"); not being proven the only
# one, a failure is still tried once more and printed.
libudt_to_ncgw() {
  ns_bg b "$TOOL" udt-recv --role listener --local 192.168.78.2:$1 --file "$WORK/got2.bin" --bytes "$BYTES" --timeout 90
  local rx=$LAST_PID
  sleep 0.3
  if ! nsx a timeout 100 "$PEER" role=caller local=192.168.78.1 peer=192.168.78.2:$1 dir=send bytes=$BYTES \
       seed=$SEED > "$WORK/peer2.out" 2>&1; then
    echo "libudt caller failed: $(cat "$WORK/peer2.out")" > "$WORK/why2"
    kill "$rx" 2>/dev/null || true
    return 1
  fi
  wait "$rx" || { echo "ncgw-udt receive (from libudt) failed" > "$WORK/why2"; return 1; }
}

echo "== 2. libudt caller -> ncgw-udt listener"
PORT=$((PORT + 1))
if ! libudt_to_ncgw $PORT; then
  echo "   first try: $(cat "$WORK/why2"); once more (a second failure fails the test)"
  PORT=$((PORT + 10))
  libudt_to_ncgw $PORT || fail "$(cat "$WORK/why2")"
fi
SENT=$(grep -E '^(done|error)' "$WORK/peer2.out") || fail "libudt caller printed no result: $(cat "$WORK/peer2.out")"
GOT=$("$PEER" checksum-file="$WORK/got2.bin" | grep '^done')
echo "   libudt sent:  $SENT"
echo "   ncgw-udt got: $GOT"
[ "$SENT" = "$GOT" ] || fail "transfer 2: checksums differ"

echo "== 3. ncgw-udt caller -> libudt listener"
nsx b timeout 100 "$PEER" role=listener local=192.168.78.2 dir=recv bytes=$BYTES > "$WORK/peer3.out" &
PEERPID=$!
PIDS_STARTED+=("$PEERPID")
WAIT_SECONDS=5 wait_for grep -q '^port=' "$WORK/peer3.out" || fail "libudt listener did not bind"
PPORT=$(sed -n 's/^port=//p' "$WORK/peer3.out")
nsx a "$TOOL" udt-send --role caller --peer 192.168.78.2:$PPORT --file "$WORK/got2.bin" --timeout 90 \
  || fail "ncgw-udt send to libudt failed; libudt listener said: $(cat "$WORK/peer3.out")"
wait "$PEERPID" || fail "libudt listener failed: $(cat "$WORK/peer3.out")"
BACK=$(grep -E '^(done|error)' "$WORK/peer3.out")
echo "   libudt got:   $BACK"
[ "$BACK" = "$SENT" ] || fail "transfer 3: checksums differ"

echo "== linkem counters"
"$LINKEM" ctl --socket "$LSOCK" stats | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin); ok = True
for k in ("a2b", "b2a"):
    s = d[k]; reach = s["frames_in"] - s["dropped_queue"]
    r = s["dropped_loss"] / reach if reach else 0
    fi, dl, dq = s["frames_in"], s["dropped_loss"], s["dropped_queue"]
    print(f"   {k}: frames_in {fi} dropped_loss {dl} ({100*r:.2f}%) dropped_queue {dq}")
    ok &= s["dropped_loss"] > 0
sys.exit(0 if ok else 1)' || fail "linkem dropped nothing: the loss did not happen"
echo "PASS"
