#!/usr/bin/env bash
# netns test: TUN offloads (tun.offload auto, the default, and off) through every transport.
# h1 - gw1 - gw2 - h2 with the veths' own offloads on (TSO/GSO/GRO as they come up), so the kernel
# hands each gateway TCP super-packets. For each transport and offload setting: status shows the
# offload state; a 16 MiB file of random bytes is downloaded with curl from a web server (Python's
# http.server) in each direction and its sha256 compared; with offloads on the reading gateways
# counted super-packets (tun_gso_frames > 0) and the writing ones merged segments (tun_gro_frames
# > 0: the kernel accepted our GSO frames and partial checksums, or the transfer would fail), with
# them off neither; drop_bad_vnet_header stays 0.
# Usage: offload.sh /path/to/ncgw
set -euo pipefail
NCGW=$(realpath "$1")
HERE=$(cd "$(dirname "$0")/.." && pwd)
NS_PREFIX="no$$"
WORK=$(mktemp -d)
GW_LOG_FILES=1
source "$HERE/lib/netns.sh"
source "$HERE/lib/two_gateways.sh"
source "$HERE/lib/http_files.sh"
trap 'rc=$?; ns_cleanup; rm -rf "$WORK"; exit $rc' EXIT

TRANSPORT=plain build_two_gateway_topology
serve_random_files

# status_field GW EXPR: a field of gateway GW's status document.
status_field() { gw_status "$1" | json_get "$2"; }

for TRANSPORT in plain tcpnc udt; do
  for OFFLOAD in auto off; do
    echo "== $TRANSPORT, tun.offload $OFFLOAD"
    for g in gw1 gw2; do
      write_gateway_config "$g"
      sed -i "s/^  name: ncgw0$/  name: ncgw0\n  offload: $OFFLOAD/" "$WORK/$g.yaml"
      start_gateway "$g"
    done
    want_state="tso4,tso6,csum"
    [ "$OFFLOAD" = off ] && want_state=off
    for g in gw1 gw2; do
      state=$(status_field "$g" 'd["tun"]["offloads"]')
      [ "$state" = "$want_state" ] || fail "$g: offloads '$state', want '$want_state'"
    done
    WAIT_SECONDS=15 wait_for nsx h1 ping -c 1 -W 1 10.2.0.2 || fail "no ping through the $TRANSPORT tunnel"
    download h2 h1 "$TRANSPORT, offload $OFFLOAD"
    download h1 h2 "$TRANSPORT, offload $OFFLOAD"
    for g in gw1 gw2; do
      frames=$(status_field "$g" 'd["counters"]["tun_gso_frames"]')
      segments=$(status_field "$g" 'd["counters"]["tun_gso_segments"]')
      merged=$(status_field "$g" 'd["counters"]["tun_gro_frames"]')
      merged_segments=$(status_field "$g" 'd["counters"]["tun_gro_segments"]')
      bad=$(status_field "$g" 'd["counters"]["drop_bad_vnet_header"]')
      echo "   $g: tun_gso_frames $frames, tun_gso_segments $segments, tun_gro_frames $merged," \
        "tun_gro_segments $merged_segments, drop_bad_vnet_header $bad"
      [ "$bad" = 0 ] || fail "$g counted $bad bad virtio_net_hdr frames"
      if [ "$OFFLOAD" = auto ]; then
        [ "$frames" -gt 0 ] || fail "$g read no TCP super-packet with offloads on"
        [ "$merged" -gt 0 ] || fail "$g merged no TCP segments on the way to the TUN with offloads on"
      else
        [ "$frames" = 0 ] || fail "$g read super-packets with offloads off"
        [ "$merged" = 0 ] || fail "$g merged segments with offloads off"
      fi
    done
    kill "$GW_PID_gw1" "$GW_PID_gw2"
    wait "$GW_PID_gw1" "$GW_PID_gw2" 2>/dev/null || true
  done
done
echo "PASS"
