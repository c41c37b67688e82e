#!/bin/bash
# Side by side, one machine, back to back: the binaries of acd9fb2 (start-up ends on one round of
# excess loss) and cc25aaf (two rounds in a row), r50d30 and r200d30, no loss and GE 5 % burst 3,
# two repetitions each. Usage: ab.sh DIR_WITH_acd9fb2_AND_cc25aaf_BINARIES OUT_DIR
set -e
bins=$1 out=$2
cd "$(dirname "$0")/../../../.."
for loss in none "gilbert:p=0.0175,r=0.3333,good=0,bad=1"; do
  tag=$([ "$loss" = none ] && echo clean || echo ge5)
  for bin in acd9fb2 cc25aaf; do
    flock /tmp/ncgw-netns.lock ./netns-scenarios/run-scenario docs/results/tcpnc-grid/startup-excess-ab/scenario.yaml \
      --case r50d30 --case r200d30 --variant tcpnc-cubic --variant tcpnc-bbr --repetitions 2 \
      --set duration=10 --set http_size=10MiB --set http_timeout=40 --set "loss_spec=$loss" \
      --ncgw "$bins/$bin/ncgw" --out "$out/$tag-$bin"
  done
done
