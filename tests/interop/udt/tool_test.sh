#!/usr/bin/env bash
# The ncgw-udt tool against the libudt peer (udt_peer) and itself; checksums must match at every hop:
#   1. their caller sends a stream -> our listener writes a file
#   2. our caller sends that file  -> their listener
#   3. their caller sends a stream -> our listener writes to stdout
#   4. our caller reads stdin      -> their listener
#   5. message mode: our caller sends the file as 1000-byte messages -> their dgram listener
#   6. message mode, ours to ours: stdin -> messages of 700 bytes -> stdout
#   7. rendezvous: their rendezvous side sends a stream -> our rendezvous side writes to stdout
#   8. rendezvous: our rendezvous side sends the file  -> their rendezvous side
set -euo pipefail
TOOL=$1 PEER=$2
DIR=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$DIR"' EXIT
PORT=$((40000 + RANDOM % 20000))
BYTES=5000000

# waits for udt_peer's "port=" line in $1; echoes the port
peer_port() {
  for _ in $(seq 50); do grep -q '^port=' "$1" 2>/dev/null && break; sleep 0.1; done
  sed -n 's/^port=//p' "$1"
}
check() {  # label expected actual
  echo "$1: $3"
  [ "$2" = "$3" ] || { echo "FAIL $1: expected $2" >&2; exit 1; }
}

echo "== 1. libudt caller -> ncgw-udt listener (file)"
"$TOOL" udt-recv --role listener --local 127.0.0.1:$PORT --file "$DIR/got" --timeout 60 -q &
TOOLPID=$!
sleep 0.3
SENT=$("$PEER" role=caller peer=127.0.0.1:$PORT type=stream dir=send bytes=$BYTES seed=9 | grep '^done')
wait $TOOLPID
check "ncgw-udt got" "$SENT" "$("$PEER" checksum-file="$DIR/got")"

echo "== 2. ncgw-udt caller (file) -> libudt listener"
"$PEER" role=listener type=stream dir=recv bytes=$BYTES > "$DIR/p2.out" &
PEERPID=$!
"$TOOL" udt-send --peer 127.0.0.1:"$(peer_port "$DIR/p2.out")" --file "$DIR/got" --timeout 60 -q
wait $PEERPID
check "libudt got" "$SENT" "$(grep '^done' "$DIR/p2.out")"

echo "== 3. libudt caller -> ncgw-udt listener (stdout)"
PORT=$((PORT + 1))
"$TOOL" udt-recv --role listener --local 127.0.0.1:$PORT --timeout 60 -q > "$DIR/got3" &
TOOLPID=$!
sleep 0.3
"$PEER" role=caller peer=127.0.0.1:$PORT type=stream dir=send bytes=$BYTES seed=9 > /dev/null
wait $TOOLPID
check "ncgw-udt stdout" "$SENT" "$("$PEER" checksum-file="$DIR/got3")"

echo "== 4. ncgw-udt caller (stdin) -> libudt listener"
"$PEER" role=listener type=stream dir=recv bytes=$BYTES > "$DIR/p4.out" &
PEERPID=$!
P4=$(peer_port "$DIR/p4.out")
cat "$DIR/got" | "$TOOL" udt-send --peer 127.0.0.1:"$P4" --timeout 60 -q
wait $PEERPID
check "libudt got from stdin" "$SENT" "$(grep '^done' "$DIR/p4.out")"

echo "== 5. ncgw-udt caller, message mode (1000-byte messages) -> libudt dgram listener"
MSGS=$(( (BYTES + 999) / 1000 ))
"$PEER" role=listener type=dgram dir=recv messages=$MSGS > "$DIR/p5.out" &
PEERPID=$!
"$TOOL" udt-send --mode message --message-size 1000 --peer 127.0.0.1:"$(peer_port "$DIR/p5.out")" \
  --file "$DIR/got" --timeout 60 -q
wait $PEERPID
check "libudt got messages" "$("$PEER" checksum-file="$DIR/got" message-size=1000)" "$(grep '^done' "$DIR/p5.out")"

echo "== 6. ncgw-udt -> ncgw-udt, message mode, stdin -> stdout"
PORT=$((PORT + 1))
"$TOOL" udt-recv --mode message --role listener --local 127.0.0.1:$PORT --timeout 60 -q > "$DIR/got6" &
TOOLPID=$!
sleep 0.3
"$TOOL" udt-send --mode message --message-size 700 --peer 127.0.0.1:$PORT --timeout 60 -q < "$DIR/got"
wait $TOOLPID
check "ncgw-udt messages" "$(sha256sum < "$DIR/got" | cut -d' ' -f1)" "$(sha256sum < "$DIR/got6" | cut -d' ' -f1)"

echo "== 7. rendezvous: libudt sends -> ncgw-udt (stdout)"
OURS=$((PORT + 1)) THEIRS=$((PORT + 2))
"$TOOL" udt-recv --role rendezvous --local 127.0.0.1:$OURS --peer 127.0.0.1:$THEIRS --timeout 60 -q > "$DIR/got7" &
TOOLPID=$!
RV=$("$PEER" role=rendezvous port=$THEIRS peer=127.0.0.1:$OURS type=stream dir=send bytes=$BYTES seed=9 | grep '^done')
wait $TOOLPID
check "libudt rendezvous sent" "$SENT" "$RV"
check "ncgw-udt rendezvous got" "$SENT" "$("$PEER" checksum-file="$DIR/got7")"

echo "== 8. rendezvous: ncgw-udt sends (file) -> libudt"
OURS=$((PORT + 3)) THEIRS=$((PORT + 4))
"$PEER" role=rendezvous port=$THEIRS peer=127.0.0.1:$OURS type=stream dir=recv bytes=$BYTES > "$DIR/p8.out" &
PEERPID=$!
"$TOOL" udt-send --role rendezvous --local 127.0.0.1:$OURS --peer 127.0.0.1:$THEIRS --file "$DIR/got" --timeout 60 -q
wait $PEERPID
check "libudt rendezvous got" "$SENT" "$(grep '^done' "$DIR/p8.out")"
echo "ncgw-udt tool interop: OK"
