#!/bin/bash
# The loss prior's side-by-side runs: two ncgw binaries alternated per repetition at each point
# (startup-pacing-ab/ab.sh), two repetitions, CUBIC and BBR hosts; 30 s iperf3 flows at r200d75,
# 10 s elsewhere. sum.py OUT/POINT tabulates each; firstfail.py OUT/POINT shows each run's first
# CW failure.
# Usage (root): ab.sh BASE_NCGW NEW_NCGW OUT
set -e
base=$1 new=$2 out=$3
ab=$(dirname "$0")/../startup-pacing-ab/ab.sh
ge5=gilbert:p=0.0175,r=0.3333,good=0,bad=1 ge15=gilbert:p=0.0588,r=0.3333,good=0,bad=1
DURATION=30 CASE=r200d75 $ab "$base" "$new" "$out/r200d75-ge5" $ge5 2 tcpnc-cubic tcpnc-bbr
DURATION=30 CASE=r200d75 $ab "$base" "$new" "$out/r200d75-b1" bernoulli:0.01 2 tcpnc-cubic tcpnc-bbr
DURATION=30 CASE=r200d75 $ab "$base" "$new" "$out/r200d75-ge15" $ge15 2 tcpnc-cubic tcpnc-bbr
CASE=r50d75 $ab "$base" "$new" "$out/r50d75-ge5" $ge5 2 tcpnc-cubic tcpnc-bbr
CASE=r10d5 $ab "$base" "$new" "$out/r10d5-ge5" $ge5 2 tcpnc-cubic tcpnc-bbr
CASE=r200d30 $ab "$base" "$new" "$out/r200d30-b1" bernoulli:0.01 2 tcpnc-cubic tcpnc-bbr
CASE=r200d5 $ab "$base" "$new" "$out/r200d5-none" none 2 tcpnc-cubic tcpnc-bbr
CASE=r10d5 $ab "$base" "$new" "$out/r10d5-none" none 2 tcpnc-cubic tcpnc-bbr
