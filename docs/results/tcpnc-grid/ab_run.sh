#!/usr/bin/env bash
# A side-by-side run of two tunnel binaries and e2e on the cases of one scenario: per repetition
# and case, e2e (both host CCs) once, then the old and the new binary, alternated, in the same
# session. 30 MiB downloads. Usage: ab_run.sh SCENARIO OLD_BIN NEW_BIN OUT REPS CASE...
set -euo pipefail
sc=$1 old=$2 new=$3 out=$4 reps=$5
shift 5
cd "$(dirname "$0")/../../.."
for rep in $(seq 1 "$reps"); do
  for c in "$@"; do
    ./netns-scenarios/run-scenario "$sc" --case "$c" --variant e2e-bbr --variant e2e-cubic --seed "$rep" \
      --set http_size=30MiB --no-plots --out "$out/e2e-$c-$rep"
    for b in old new; do
      bin=$old; [ $b = new ] && bin=$new
      ./netns-scenarios/run-scenario "$sc" --case "$c" --variant tcpnc-bbr --variant tcpnc-cubic --seed "$rep" \
        --set http_size=30MiB --ncgw "$bin" --no-plots --out "$out/$b-$c-$rep"
    done
  done
done
