#!/usr/bin/env bash
# netns test: two real ncgw daemons with transport $TRANSPORT (default plain)
# between h1 and h2: ping through the tunnel; iperf3 TCP for 10 s; a forged datagram from a
# non-peer address does not reach h2 and is counted; malformed datagrams from the peer's own address
# are counted and the daemon keeps running; a TUN packet without a route is dropped and counted;
# (plain) datagrams dropped on the wire are counted by the receiver as rx_lost; killing and
# restarting gw2 restores the path under a running iperf3, and what is sent into the outage is
# counted (plain: tx_while_peer_silent).
# QUICK=1 stops after the ping and iperf3 checks; PEER_NAMES=crossed makes each gateway name its
# peer "far-end" (lib/two_gateways.sh); TRANSPORT_SETTINGS is the transport's settings block.
# CHANNELS=N (udt) sets udt.channels on both gateways, runs iperf3 with 8 streams, and checks that
# both gateways hold N connected channels and that the streams used more than one.
# Usage: two_gateway_tunnel.sh /path/to/ncgw
set -euo pipefail
NCGW=$(realpath "$1")
TRANSPORT=${TRANSPORT:-plain}
HERE=$(cd "$(dirname "$0")/.." && pwd)
NS_PREFIX="ng$$"
WORK=$(mktemp -d)
source "$HERE/lib/netns.sh"
source "$HERE/lib/two_gateways.sh"
source "$HERE/gateway/checks.sh"
trap 'rc=$?; ns_cleanup; rm -rf "$WORK"; exit $rc' EXIT
case "$TRANSPORT" in plain) PORT=5500;; tcpnc) PORT=5501;; udt) PORT=5502;; esac
STREAMS=1
if [ -n "${CHANNELS:-}" ]; then TRANSPORT_SETTINGS="{channels: $CHANNELS}"; STREAMS=8; fi

build_two_gateway_topology
start_gateway gw1
start_gateway gw2

echo "== ping h1 -> h2 through the tunnel"
WAIT_SECONDS=10 wait_for nsx h1 ping -c 1 -W 1 10.2.0.2 || fail "no ping reply through the tunnel"
nsx h1 ping -c 5 -i 0.2 10.2.0.2 | tail -2

echo "== iperf3 TCP h1 -> h2, 10 s, $STREAMS stream(s)"
ns_bg h2 iperf3 -s -1 -p 5201
sleep 0.5
nsx h1 iperf3 -c 10.2.0.2 -p 5201 -t 10 -P "$STREAMS" -J > "$WORK/iperf.json" || fail "iperf3 through the tunnel failed"
gbps=$(json_get 'round(d["end"]["sum_received"]["bits_per_second"]/1e9,3)' < "$WORK/iperf.json")
echo "tunnel goodput: $gbps Gbit/s"
/usr/bin/python3 -c "import sys; sys.exit(0 if float('$gbps') > 0.01 else 1)" || fail "goodput $gbps too low"

if [[ "${TRANSPORT_SETTINGS:-}" == *paudt* ]]; then
  # PaUDT's window rule is the one running: it has a slow-start threshold (CUDTCC has none).
  ssthresh=$(gw_status gw1 | json_get 'd["peers"][0]["core"]["slow_start_threshold_packets"]')
  echo "gw1 UDT congestion control paudt: slow-start threshold $ssthresh packets"
  /usr/bin/python3 -c "import sys; sys.exit(0 if float('$ssthresh') >= 2 else 1)" || fail "paudt not running"
fi
if [ -n "${CHANNELS:-}" ]; then check_parallel_channels "$CHANNELS"; fi
if [ "${QUICK:-0}" = 1 ]; then echo "PASS (ping and iperf3 only)"; exit 0; fi
check_forged_datagrams
check_malformed_from_peer
check_no_route
[ "$TRANSPORT" = plain ] && check_wire_loss_counted
check_restart
echo "PASS"
