#!/usr/bin/env bash
# netns test: the TCP/NC TUN MTU that assumes header compression, with end hosts as Linux ships them
# (veth MTU 1500, MSS from the path). Two gateways with the default configuration (secure layer
# on), no emulated link. Checked, for hosts with TCP timestamps (Linux's default) and then without:
#   - a 16 MiB download each way (curl from Python's http.server) arrives intact (sha256);
#   - each gateway clamped the SYN it carried (mss_clamped > 0) and every form it split was joined
#     at the other end (forms_joined = forms_split, form_pieces_dropped = 0, header_drops = 0);
#   - bulk segments take one source each: forms split <= 3 % of sources (the contexts' full
#     headers, one packet in 65), with timestamps and without (the clamp keeps segments of hosts
#     without timestamps within one source);
# and a ping of the full TUN MTU with DF set (an ICMP packet does not compress: two sources) gets
# its reply.
#   h1 10.1.0.2 -- gw1 10.1.0.1 | 192.168.77.1 -- 192.168.77.2 | gw2 10.2.0.1 -- h2 10.2.0.2
# Usage: tcpnc_pieces.sh /path/to/ncgw
set -euo pipefail
NCGW=$(realpath "$1")
HERE=$(cd "$(dirname "$0")/.." && pwd)
NS_PREFIX="tp$$"
WORK=$(mktemp -d)
GW_LOG_FILES=1
source "$HERE/lib/netns.sh"
source "$HERE/lib/two_gateways.sh"
source "$HERE/lib/http_files.sh"
trap 'rc=$?; ns_cleanup; rm -rf "$WORK"; exit $rc' EXIT

TRANSPORT=tcpnc build_two_gateway_topology
serve_random_files

# core GW FIELD: a counter of gateway GW's TCP/NC core.
core() { gw_status "$1" | json_get "d['peers'][0]['core']['$2']"; }

for CASE in timestamps no-timestamps; do
  echo "== hosts with $CASE"
  ts=1; [ "$CASE" = no-timestamps ] && ts=0
  for h in h1 h2; do nsx $h sysctl -qw net.ipv4.tcp_timestamps=$ts; done
  start_gateway gw1
  start_gateway gw2
  WAIT_SECONDS=15 wait_for nsx h1 ping -c 1 -W 1 10.2.0.2 || fail "no ping through the tunnel"
  mtu=$(gw_status gw1 | json_get 'd["tun"]["mtu"]')
  echo "   TUN MTU $mtu, largest packet $(core gw1 max_packet)"
  download h2 h1 "$CASE"
  download h1 h2 "$CASE"
  nsx h1 ping -c 2 -W 2 -M do -s $((mtu - 28)) 10.2.0.2 > /dev/null || fail "a ping of the TUN MTU ($mtu) got no reply ($CASE)"
  for g in gw1 gw2; do
    o=gw2; [ $g = gw2 ] && o=gw1
    split=$(core $g forms_split); sources=$(core $g sources_sent); clamped=$(core $g mss_clamped)
    joined=$(core $o forms_joined); dropped=$(core $o form_pieces_dropped); hdrops=$(core $o header_drops)
    echo "   $g: sources $sources, forms split $split (joined at $o: $joined, pieces dropped $dropped), SYNs clamped $clamped"
    [ "$(core $g form_pieces)" = 1.0 ] || fail "$g: forms in pieces not negotiated"
    [ "${clamped%.*}" -gt 0 ] || fail "$g: no SYN clamped ($CASE)"
    [ "$split" = "$joined" ] || fail "$g: $split forms split, $joined joined at $o ($CASE)"
    [ "$dropped" = 0.0 ] && [ "$hdrops" = 0.0 ] || fail "$o: pieces dropped $dropped, header drops $hdrops ($CASE)"
    /usr/bin/python3 -c "import sys; sys.exit(0 if $split <= 0.03 * $sources else 1)" ||
      fail "$g: $split of $sources sources were pieces: bulk segments did not fit one source ($CASE)"
  done
  for g in gw1 gw2; do kill "$(eval echo \$GW_PID_$g)"; done
  wait_for bash -c "! test -S /run/ncgw/${NS_PREFIX}-gw1.sock && ! test -S /run/ncgw/${NS_PREFIX}-gw2.sock"
done
echo "PASS"
