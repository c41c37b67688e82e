# The hub topology of the workers test and benchmark: gw1 with two peers, a host behind each.
#   h1 10.1.0.2 - gw1 =192.168.12.0/24= gw2 - h2 10.2.0.2
#                    =192.168.13.0/24= gw3 - h3 10.3.0.2
# Needs lib/netns.sh sourced, NCGW, WORK and NS_PREFIX. Makes each gateway's key pair
# ($WORK/gwN.key, $WORK/gwN.pub), default routes on the hosts, forwarding and MSS clamping.
build_hub_topology() {
  local n h
  for n in h1 gw1 gw2 h2 gw3 h3; do ns_add $n; done
  veth_link h1 eth0 gw1 lan0 10.1.0.2/24 10.1.0.1/24
  veth_link gw1 wan2 gw2 wan0 192.168.12.1/24 192.168.12.2/24
  veth_link gw1 wan3 gw3 wan0 192.168.13.1/24 192.168.13.2/24
  veth_link h2 eth0 gw2 lan0 10.2.0.2/24 10.2.0.1/24
  veth_link h3 eth0 gw3 lan0 10.3.0.2/24 10.3.0.1/24
  for h in 1 2 3; do
    nsx h$h ip route add default via 10.$h.0.1
    gateway_sysctls gw$h
    (umask 077; "$NCGW" genkey > "$WORK/gw$h.key")
    "$NCGW" pubkey < "$WORK/gw$h.key" > "$WORK/gw$h.pub"
  done
}
