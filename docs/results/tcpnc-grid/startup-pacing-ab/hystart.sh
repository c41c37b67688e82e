#!/bin/bash
# r200d30, tcpnc-cubic: the hosts' HyStart on (Linux default) against off, alternating per repetition
# (machine-wide tcp_cubic parameter; restored at the end). Usage (root): hystart.sh NCGW OUT LOSS_SPEC REPS
bin=$1 out=$2 loss=$3 reps=$4
P=/sys/module/tcp_cubic/parameters
trap 'echo 1 > $P/hystart; echo 3 > $P/hystart_detect' EXIT
cd "$(dirname "$0")/../../../.."
for r in $(seq 1 $reps); do
  for h in 1 0; do
    exec 9>/tmp/ncgw-netns.lock; flock 9
    echo $h > $P/hystart
    ./netns-scenarios/run-scenario docs/results/tcpnc-grid/startup-excess-ab/scenario.yaml --case r200d30 \
      --variant tcpnc-cubic --repetitions 1 --set duration=10 --set http_size=10MiB --set http_timeout=40 \
      --set "loss_spec=$loss" --ncgw $bin --out $out/h$h-$r > /dev/null 2>&1
    flock -u 9
  done
done
echo 1 > $P/hystart
echo finished
