#!/bin/bash
# Side-by-side of two ncgw binaries over the grid's 30 ms slice (all six loss models), tunnel
# variants only, alternating binaries per case (base, new per case). slicesum.py OUT tabulates.
# Usage (root): slice.sh BASE_NCGW NEW_NCGW OUT
set -e
base=$1 new=$2 out=$3
cd "$(dirname "$0")/../../../.."
for c in r10d30 r50d30 r200d30; do
  for b in base new; do
    bin=$base; [ "$b" = new ] && bin=$new
    flock /tmp/ncgw-netns.lock ./netns-scenarios/run-scenario netns-scenarios/scenarios/tcpnc-grid.yaml \
      --case $c --variant tcpnc-cubic --variant tcpnc-bbr --set duration=10 --set http_size=10MiB \
      --set http_timeout=40 --ncgw "$bin" --out "$out/$b-$c"
  done
done
