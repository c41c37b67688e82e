#!/usr/bin/env bash
# netns test: path MTU discovery through a tunnel that carries less than its TUN MTU. Two cases:
#   tcpnc  both gateways set `tun.mtu: 1472` (the most the config allows on a 1500-byte underlay,
#          more than the tunnel carries: ncgw warns at start);
#   udt    gw2 sets `udt.mss: 1400`, gw1 keeps `mss: auto` (1500 on this path): the handshake takes
#          the smaller MSS, so gw1's TUN MTU (from its own MSS) is more than the tunnel then carries.
# A packet larger than the tunnel carries must not vanish: the gateway answers it with an ICMP
# "fragmentation needed" (IPv4 with DF) carrying the tunnel's MTU, as a router would, so the end
# host's path MTU discovery adapts. Checked: h1's ping -M do of gw1's TUN MTU (which the kernel on
# gw1 lets into the TUN) is answered with that MTU and a ping of exactly that MTU gets through; a TCP transfer of 4 MB each way (end hosts' MSS 1460)
# completes; gw1 counts the packets (peer `too_big`) and the answers (`icmp_too_big_sent`). An answer
# written to the local TUN comes from the refused packet's destination (the kernel drops packets
# from its own addresses arriving on an interface).
#   h1 10.1.0.2 -- gw1 10.1.0.1 | 192.168.77.1 -- 192.168.77.2 | gw2 10.2.0.1 -- h2 10.2.0.2
# Usage: path_mtu.sh /path/to/ncgw
set -euo pipefail
NCGW=$(realpath "$1")
HERE=$(cd "$(dirname "$0")/.." && pwd)
NS_PREFIX="pm$$"
WORK=$(mktemp -d)
GW_LOG_FILES=1
source "$HERE/lib/netns.sh"
source "$HERE/lib/two_gateways.sh"
trap 'rc=$?; ns_cleanup; rm -rf "$WORK"; exit $rc' EXIT

TRANSPORT=tcpnc
build_two_gateway_topology
ns_bg h2 iperf3 -s -p 5201 > "$WORK/iperf3-server.log" 2>&1

# run_case NAME: gateways already configured in $WORK/gw*.yaml; starts them, checks, stops them.
run_case() {
  local name=$1 reply mtu tun_mtu
  echo "== $name"
  nsx h1 ip route flush cache
  nsx h2 ip route flush cache
  start_gateway gw1
  start_gateway gw2
  WAIT_SECONDS=15 wait_for nsx h1 ping -c 1 -W 1 10.2.0.2 || fail "$name: no ping through the tunnel"
  tun_mtu=$(gw_status gw1 | json_get 'd["tun"]["mtu"]')
  echo "gw1 TUN MTU $tun_mtu"
  # A packet of exactly the TUN MTU passes the kernel's own check on gw1: only ncgw can refuse it.
  reply=$(nsx h1 ping -c 2 -W 2 -M do -s $((tun_mtu - 28)) 10.2.0.2 2>&1 || true)
  mtu=$(echo "$reply" | sed -n 's/.*mtu *= *\([0-9]*\).*/\1/p' | head -1)
  echo "ping -M do -s $((tun_mtu - 28)): $(echo "$reply" | grep -m1 -i 'mtu' || echo "$reply" | tail -1)"
  [ -n "$mtu" ] && [ "$mtu" -lt "$tun_mtu" ] || { gw_status gw1 | head -c 3000; echo; fail "$name: no ICMP fragmentation needed with an MTU below the TUN MTU $tun_mtu"; }
  nsx h1 ping -c 2 -W 2 -M do -s $((mtu - 28)) 10.2.0.2 > /dev/null ||
    fail "$name: a ping of the reported MTU ($mtu) did not get through"
  for dir in "" "-R"; do
    timeout 60 ip netns exec "$NS_PREFIX-h1" iperf3 -c 10.2.0.2 -p 5201 -n 4M $dir -J > "$WORK/iperf3.json" ||
      fail "$name: TCP transfer ${dir:-h1 -> h2} did not complete: $(head -c 300 "$WORK/iperf3.json")"
    echo "TCP 4 MB ${dir:+(reverse) }done: $(json_get 'round(d["end"]["sum_received"]["bits_per_second"] / 1e6, 1)' < "$WORK/iperf3.json") Mbit/s"
  done
  for g in gw1 gw2; do
    local s
    s=$(gw_status $g)
    echo "$g: too_big $(echo "$s" | json_get 'd["peers"][0]["too_big"]') icmp_too_big_sent $(echo "$s" | json_get 'd["counters"]["icmp_too_big_sent"]')"
  done
  # gw1 must have answered h1's ping; gw2 may not need to (h1's SYN can already carry an MSS that
  # fits, from the path MTU it learned), so only the transfer above proves the reverse direction.
  [ "$(gw_status gw1 | json_get 'd["counters"]["icmp_too_big_sent"] > 0')" = True ] || fail "$name: gw1 sent no Packet Too Big"
  for g in gw1 gw2; do kill "$(eval echo \$GW_PID_$g)"; done
  wait_for bash -c "! test -S /run/ncgw/${NS_PREFIX}-gw1.sock && ! test -S /run/ncgw/${NS_PREFIX}-gw2.sock"
}

for g in gw1 gw2; do sed -i 's/^  name: ncgw0$/  name: ncgw0\n  mtu: 1472/' "$WORK/$g.yaml"; done
grep -q "mtu: 1472" "$WORK/gw1.yaml" || fail "could not set tun.mtu"
run_case "tcpnc, tun.mtu 1472"

TRANSPORT=udt
write_gateway_config gw1
TRANSPORT_SETTINGS="{mss: 1400}" write_gateway_config gw2
run_case "udt, gw2 mss 1400, gw1 mss auto"
echo "PASS"
