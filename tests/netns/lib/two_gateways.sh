# Builds h1 - gw1 - gw2 - h2 in namespaces and writes the two gateway configs.
# Needs lib/netns.sh sourced, NCGW (binary), WORK (temp dir), TRANSPORT (plain|tcpnc|udt).
# Also brings start_gateway, gw_status and json_get (lib/ncgw.sh).
#   h1 10.1.0.2/24 -- gw1 10.1.0.1 | 192.168.77.1 -- 192.168.77.2 | gw2 10.2.0.1 -- h2 10.2.0.2/24

source "$(dirname "${BASH_SOURCE[0]}")/ncgw.sh"

# Writes the YAML config of gateway $1 (gw1|gw2) to $WORK/$1.yaml, with keys made on first use
# (SECURITY=none: a plaintext peer; REKEY_AFTER_S, PSK_FILE: passed on). With PEER_NAMES=crossed each
# gateway calls the other "far-end" instead of by its name (users name peers as they like).
# TRANSPORT_SETTINGS (a YAML flow mapping) becomes the peer's settings block for $TRANSPORT.
write_gateway_config() {
  local me="$1" peer local_net remote_net tun_addr endpoint peer_name
  if [ "$me" = gw1 ]; then
    peer=gw2; remote_net=10.2.0.0/24; tun_addr=10.99.0.1/30; endpoint=192.168.77.2
  else
    peer=gw1; remote_net=10.1.0.0/24; tun_addr=10.99.0.2/30; endpoint=192.168.77.1
  fi
  peer_name=${NS_PREFIX}-$peer
  [ "${PEER_NAMES:-}" = crossed ] && peer_name=far-end
  [ -f "$WORK/$me.key" ] || make_gateway_key "$me"
  [ -f "$WORK/$peer.key" ] || make_gateway_key "$peer"
  cat > "$WORK/$me.yaml" <<YAML
gateway:
  name: ${NS_PREFIX}-$me
  private_key_file: $WORK/$me.key
tun:
  name: ncgw0
  addresses: [$tun_addr]
peers:
  - name: $peer_name
    endpoint: $endpoint
    transport: $TRANSPORT
$(peer_security_yaml "$peer" 4)
${TRANSPORT_SETTINGS:+    $TRANSPORT: $TRANSPORT_SETTINGS
}routes:
  - {prefix: $remote_net, via: $peer_name}
logging:
  level: info
YAML
}

# Creates the four namespaces and their links.
build_two_gateway_topology() {
  for n in h1 gw1 gw2 h2; do ns_add $n; done
  veth_link h1 eth0 gw1 lan0 10.1.0.2/24 10.1.0.1/24
  veth_link gw1 wan0 gw2 wan0 192.168.77.1/24 192.168.77.2/24
  veth_link gw2 lan0 h2 eth0 10.2.0.1/24 10.2.0.2/24
  nsx h1 ip route add default via 10.1.0.1
  nsx h2 ip route add default via 10.2.0.1
  gateway_sysctls gw1
  gateway_sysctls gw2
  write_gateway_config gw1
  write_gateway_config gw2
}
