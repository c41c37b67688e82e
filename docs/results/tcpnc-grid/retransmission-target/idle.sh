#!/bin/bash
# Usage (root): idle.sh NCGW OUT [REPS]. The spare plan's target (idle_retransmission_target) 0.01
# (default) vs 0.003, CUBIC and BBR hosts, r200d30, 5 % random and GE 5 %; the four variants of one
# repetition run back to back.
cd "$(dirname "$0")/../../../.."
for loss in "bernoulli:0.05" "gilbert:p=0.0175,r=0.3333,good=0,bad=1"; do
  tag=b5; [[ $loss == gilbert* ]] && tag=ge5
  for r in $(seq 1 "${3:-3}"); do
    flock /tmp/ncgw-netns.lock ./netns-scenarios/run-scenario docs/results/tcpnc-grid/retransmission-target/scenario.yaml \
      --case r200d30 --variant tcpnc-cubic --variant tcpnc-cubic-i003 --variant tcpnc-bbr --variant tcpnc-bbr-i003 \
      --repetitions 1 --set duration=10 --set http_size=10MiB --set http_timeout=40 \
      --set "loss_spec=$loss" --ncgw "$1" --out "$2/$tag-$r" > /dev/null 2>&1
  done
done
echo finished
