#!/bin/bash
# Side-by-side of two ncgw binaries on r200d30 (another link: CASE=r50d30 in the environment), one
# loss model, iperf3 flows of 10 s (DURATION=30 in the environment for 30 s), interleaved per
# repetition: base, new, base, new, ... Each repetition writes OUT/base-R and OUT/new-R; sum.py OUT
# tabulates.
# Usage (root, from anywhere): ab.sh BASE_NCGW NEW_NCGW OUT LOSS_SPEC REPETITIONS VARIANT...
set -e
base=$1 new=$2 out=$3 loss=$4 reps=$5; shift 5
vs=(); for v in "$@"; do vs+=(--variant "$v"); done
cd "$(dirname "$0")/../../../.."
for r in $(seq 1 "$reps"); do
  for b in base new; do
    bin=$base; [ "$b" = new ] && bin=$new
    flock /tmp/ncgw-netns.lock ./netns-scenarios/run-scenario docs/results/tcpnc-grid/startup-excess-ab/scenario.yaml \
      --case "${CASE:-r200d30}" "${vs[@]}" --repetitions 1 --set "duration=${DURATION:-10}" --set http_size=10MiB --set http_timeout=40 \
      --set "loss_spec=$loss" --ncgw "$bin" --out "$out/$b-$r"
  done
done
