#!/usr/bin/env bash
# netns test: full-size packets through every transport over an IPv6 underlay. For plain, tcpnc
# and udt in turn, two real ncgw daemons are joined by an IPv6-only link (fd77::/64); their TUN MTU
# is `auto` (underlay 1500 minus the IPv6, UDP and transport headers). A last pass runs udt with
# `mss: auto` over a route whose MTU is 1400: the MSS and the TUN MTU follow the route. h1 pings h2 through the
# tunnel with IPv4 and with IPv6 packets of exactly the TUN MTU, Don't Fragment set: every reply must
# come back, and no gateway may count a UDP send error (an oversize datagram would fail with
# EMSGSIZE: IP_PMTUDISC_DO). One size more must be refused at gw1 (ICMP fragmentation needed).
#   h1 10.1.0.2 fd01::2 -- gw1 | fd77::1 -- fd77::2 | gw2 -- h2 10.2.0.2 fd02::2
# Usage: ipv6_underlay.sh /path/to/ncgw
set -euo pipefail
NCGW=$(realpath "$1")
HERE=$(cd "$(dirname "$0")/.." && pwd)
NS_PREFIX="n6$$"
WORK=$(mktemp -d)
source "$HERE/lib/netns.sh"
source "$HERE/lib/ncgw.sh"
trap 'rc=$?; ns_cleanup; rm -rf "$WORK"; exit $rc' EXIT

# Writes gateway $1's config for transport $2 (`udt-auto`: udt with `mss: auto`).
write_config() {
  local me=$1 transport=$2 peer endpoint tun4 tun6 remote4 remote6 settings=""
  if [ "$transport" = udt-auto ]; then transport=udt; settings=", udt: {mss: auto}"; fi
  if [ "$me" = gw1 ]; then
    peer=gw2; endpoint=fd77::2; tun4=10.99.0.1/30; tun6=fd99::1/64; remote4=10.2.0.0/24; remote6=fd02::/64
  else
    peer=gw1; endpoint=fd77::1; tun4=10.99.0.2/30; tun6=fd99::2/64; remote4=10.1.0.0/24; remote6=fd01::/64
  fi
  [ -f "$WORK/$me.key" ] || make_gateway_key "$me"
  [ -f "$WORK/$peer.key" ] || make_gateway_key "$peer"
  cat > "$WORK/$me.yaml" <<YAML
gateway: {name: ${NS_PREFIX}-$me, private_key_file: $WORK/$me.key}
tun: {name: ncgw0, addresses: [$tun4, "$tun6"]}
listen: {address: "::"}
peers:
  - {name: ${NS_PREFIX}-$peer, endpoint: "$endpoint", transport: $transport$settings, public_key: $(cat "$WORK/$peer.pub")}
routes:
  - {prefix: $remote4, via: ${NS_PREFIX}-$peer}
  - {prefix: "$remote6", via: ${NS_PREFIX}-$peer}
YAML
}

for n in h1 gw1 gw2 h2; do ns_add $n; done
veth_link h1 eth0 gw1 lan0 10.1.0.2/24 10.1.0.1/24
veth_link gw2 lan0 h2 eth0 10.2.0.1/24 10.2.0.2/24
ip link add wan0 netns "$NS_PREFIX-gw1" type veth peer name wan0 netns "$NS_PREFIX-gw2"
for g in gw1 gw2; do nsx $g ip link set wan0 up; done
nsx gw1 ip -6 addr add fd77::1/64 dev wan0 nodad
nsx gw2 ip -6 addr add fd77::2/64 dev wan0 nodad
nsx h1 ip -6 addr add fd01::2/64 dev eth0 nodad
nsx gw1 ip -6 addr add fd01::1/64 dev lan0 nodad
nsx gw2 ip -6 addr add fd02::1/64 dev lan0 nodad
nsx h2 ip -6 addr add fd02::2/64 dev eth0 nodad
nsx h1 ip route add default via 10.1.0.1
nsx h2 ip route add default via 10.2.0.1
nsx h1 ip -6 route add default via fd01::1
nsx h2 ip -6 route add default via fd02::1
for g in gw1 gw2; do
  nsx $g sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
done

for transport in plain tcpnc udt udt-auto; do
  echo "== $transport over IPv6"
  expected=""
  if [ "$transport" = udt-auto ]; then
    # `udt.mss: auto` takes the path MTU the kernel holds toward the peer: a route MTU of 1400 on
    # the underlay makes the MSS 1400 and the TUN MTU 1400 - 48 (IPv6 + UDP) - 27 (AEAD record)
    # - 16 (UDT) = 1309.
    for g in gw1 gw2; do nsx $g ip -6 route replace fd77::/64 dev wan0 proto kernel metric 256 mtu 1400; done
    expected=1309
  fi
  # The previous transport's "one byte over" probe left a learnt path MTU on h1: forget it.
  nsx h1 ip route flush cache
  nsx h1 ip -6 route flush cache
  write_config gw1 $transport
  write_config gw2 $transport
  start_gateway gw1
  start_gateway gw2
  mtu=$(gw_status gw1 | json_get 'd["tun"]["mtu"]')
  echo "TUN MTU $mtu"
  [ -z "$expected" ] || [ "$mtu" = "$expected" ] || fail "$transport: TUN MTU $mtu, expected $expected"
  WAIT_SECONDS=15 wait_for nsx h1 ping -c 1 -W 1 10.2.0.2 || fail "$transport: no IPv4 reply through the tunnel"
  nsx h1 ping -c 3 -W 2 -M do -s $((mtu - 28)) 10.2.0.2 > /dev/null ||
    fail "$transport: IPv4 packets of $mtu bytes (the TUN MTU) did not get through"
  nsx h1 ping -6 -c 3 -W 2 -M do -s $((mtu - 48)) fd02::2 > /dev/null ||
    fail "$transport: IPv6 packets of $mtu bytes did not get through"
  if nsx h1 ping -c 1 -W 2 -M do -s $((mtu - 27)) 10.2.0.2 > /dev/null 2>&1; then
    fail "$transport: an IPv4 packet one byte over the TUN MTU got through unfragmented"
  fi
  errors=0
  for g in gw1 gw2; do
    errors=$(( errors + $(gw_status $g | json_get 'sum(p["send_errors"] for p in d["ports"])') ))
  done
  echo "full-size IPv4 and IPv6 through $transport: ok; UDP send errors on both gateways: $errors"
  [ "$errors" = 0 ] || fail "$transport: $errors UDP send errors (oversize datagrams?)"
  for g in gw1 gw2; do kill "$(eval echo \$GW_PID_$g)"; done
  wait_for bash -c "! test -S /run/ncgw/${NS_PREFIX}-gw1.sock && ! test -S /run/ncgw/${NS_PREFIX}-gw2.sock"
done
echo "PASS"
