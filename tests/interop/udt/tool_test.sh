#!/usr/bin/env bash
# ncgw-udt against the libudt peer: their caller sends a stream, our tool listens and writes a file;
# then our tool sends that file back to their listener. Checksums must match at every hop.
set -euo pipefail
TOOL=$1 PEER=$2
DIR=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$DIR"' EXIT
PORT=$((40000 + RANDOM % 20000))
"$TOOL" udt-recv --role listener --local 127.0.0.1:$PORT --file "$DIR/got" --timeout 60 -q &
TOOLPID=$!
sleep 0.3
SENT=$("$PEER" role=caller peer=127.0.0.1:$PORT type=stream dir=send bytes=5000000 seed=9 | grep '^done')
wait $TOOLPID
GOT=$("$PEER" checksum-file="$DIR/got")
echo "libudt sent:   $SENT"
echo "ncgw-udt got:  $GOT"
[ "$SENT" = "$GOT" ]
# back the other way: their listener receives from our tool
"$PEER" role=listener type=stream dir=recv bytes=5000000 > "$DIR/peer.out" &
PEERPID=$!
for _ in $(seq 50); do grep -q '^port=' "$DIR/peer.out" && break; sleep 0.1; done
PPORT=$(sed -n 's/^port=//p' "$DIR/peer.out")
"$TOOL" udt-send --peer 127.0.0.1:$PPORT --file "$DIR/got" --timeout 60 -q
wait $PEERPID
BACK=$(grep '^done' "$DIR/peer.out")
echo "libudt got:    $BACK"
[ "$BACK" = "$SENT" ]
echo "ncgw-udt tool interop: OK"
