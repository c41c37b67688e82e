#!/usr/bin/env bash
# Benchmark (not a test): iperf3 TCP h1 -> h2 on one topology, in one run:
#   h1 10.1.0.2 -- gw1 | 192.168.77.1 -- 192.168.77.2 | gw2 -- h2 10.2.0.2   (veths, no emulator)
# for (the run interleaves them; see below):
#   direct        the gateways route (kernel forwarding, no tunnel)
#   ncgw plain    ncgw tunnel, transport plain (unreliable UDP encapsulation)
#   ncgw tcpnc    ncgw tunnel, transport tcpnc (defaults)
#   ncgw udt      ncgw tunnel, transport udt (defaults)
#   ncgw *_enc    the three again with the secure layer (ChaCha20-Poly1305 records, Noise IKpsk2 keys);
#                 the clear variants above use `security: none`
#   ncgw *_nooffload  the three clear ones with `tun.offload: off` (one packet per TUN read and write);
#                 the others run with the default `auto` (TSO4/TSO6 and checksum offload on the TUN)
#   ncgw tcpnc_nohc  tcpnc in clear with `header_compression: false` (what compressing the inner
#                 headers costs in CPU)
#   openvpn udp   OpenVPN 2.6 p2p over UDP, static key, --cipher none --auth none (no crypto)
#   openvpn tcp   the same over TCP (--proto tcp-server/tcp-client): a TCP tunnel without coding
#   openvpn udp_gcm  OpenVPN 2.6 p2p over UDP with AES-256-GCM data channel: TLS mode with a
#                 throw-away CA and two certificates (openssl, ECDSA P-256), --dh none; static-key
#                 mode cannot do AEAD ciphers in 2.6, so this is the encrypted baseline for ncgw's
#                 secure layer (ChaCha20-Poly1305; AES-GCM where the CPU has AES-NI is OpenVPN's
#                 best case)
# End hosts: Linux defaults (cubic, SACK, offloads as the veths come up). Each tunnel's TUN MTU:
# ncgw `mtu: auto`; OpenVPN --tun-mtu = ncgw plain's TUN MTU (so the same inner MSS; with AES-256-GCM
# that of ncgw plain with the secure layer, whose overhead is close to OpenVPN's), --mssfix 0;
# the gateways clamp the hosts' MSS to the route MTU (nftables). Outer IP fragmentation created at
# gw1 during each flow is printed (it should be 0).
# Each line also has the CPU seconds per GB of goodput the two tunnel processes used during the
# flow (utime + stime of both, from /proc; '-' for direct routing, which is kernel work).
# Prints one line per variant, then
#   tcpnc_gbps=A udt_gbps=B openvpn_tcp_gbps=C
#   ncgw_tcpnc_over_openvpn=T                (ncgw tcpnc / OpenVPN UDP without crypto)
#   ncgw_aead_over_openvpn_aead=E            (ncgw plain with the secure layer / OpenVPN AES-256-GCM)
#   direct_gbps=X openvpn_gbps=Y ncgw_gbps=Z ncgw_over_openvpn=R      (Y: OpenVPN UDP, Z: ncgw plain)
# Usage: tunnel_vs_openvpn.sh NCGW_BINARY [SECONDS]   (as root; Release build; the machine's other
#        load shows in the figures: compare only figures of the same run)
#        ONLY="udt tcpnc_enc ..." runs direct routing and just those variants (names as printed,
#        without the ncgw_ prefix; openvpn_udp, openvpn_udp_gcm, openvpn_tcp), for side-by-side runs
#        of two binaries; the summary lines then show 0 for what did not run.
#        STATUS_DIR=DIR saves both gateways' `ncgw status --json` at the end of each ncgw flow
#        there (VARIANT-gw1.json, VARIANT-gw2.json), to see afterwards what held a flow back.
set -euo pipefail
NCGW=$(realpath "$1")
SECONDS_PER_FLOW=${2:-10}
OMIT=${OMIT:-1}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
NS_PREFIX="bo$$"
WORK=$(mktemp -d)
source "$REPO/tests/netns/lib/netns.sh"
trap 'rc=$?; ns_cleanup; rm -rf "$WORK"; exit $rc' EXIT
command -v openvpn >/dev/null || { echo "openvpn not installed (scripts/install-deps.sh)" >&2; exit 2; }

for n in h1 gw1 gw2 h2; do ns_add $n; done
veth_link h1 eth0 gw1 lan0 10.1.0.2/24 10.1.0.1/24
veth_link gw1 wan0 gw2 wan0 192.168.77.1/24 192.168.77.2/24
veth_link gw2 lan0 h2 eth0 10.2.0.1/24 10.2.0.2/24
for n in h1 gw1 gw2 h2; do nsx $n sysctl -qw net.ipv6.conf.all.disable_ipv6=1; done
nsx h1 ip route add default via 10.1.0.1
nsx h2 ip route add default via 10.2.0.1
gateway_sysctls gw1
gateway_sysctls gw2

direct_routes() {  # add|del
  nsx gw1 ip route "$1" 10.2.0.0/24 via 192.168.77.2
  nsx gw2 ip route "$1" 10.1.0.0/24 via 192.168.77.1
}

frag_creates() { nsx gw1 nstat -az IpFragCreates | awk '/IpFragCreates/ {print $2}'; }

# cpu_ticks PID...: utime + stime of the processes, in clock ticks.
cpu_ticks() {
  local t=0 p
  for p in "$@"; do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done
  echo "$t"
}

PORT=5400
TUNNEL_PIDS=()  # the two tunnel processes of the variant being measured (empty: direct routing)
# measure NAME: one iperf3 TCP flow h1 -> h2; prints a line; sets GBPS.
measure() {
  local name=$1 f0 f1 c0=0 c1=0
  PORT=$((PORT + 1))
  WAIT_SECONDS=15 wait_for nsx h1 ping -c 1 -W 1 10.2.0.2 || fail "$name: no ping h1 -> h2"
  ns_bg h2 iperf3 -s -1 -p "$PORT" > "$WORK/server_$name.txt" 2>&1
  local srv=$LAST_PID
  sleep 0.5
  f0=$(frag_creates)
  [ ${#TUNNEL_PIDS[@]} -gt 0 ] && c0=$(cpu_ticks "${TUNNEL_PIDS[@]}")
  nsx h1 iperf3 -c 10.2.0.2 -p "$PORT" -t "$SECONDS_PER_FLOW" -O "$OMIT" -J > "$WORK/$name.json" \
    || fail "iperf3 $name failed: $(head -c 400 "$WORK/$name.json")"
  wait "$srv" 2>/dev/null || true
  f1=$(frag_creates)
  [ ${#TUNNEL_PIDS[@]} -gt 0 ] && c1=$(cpu_ticks "${TUNNEL_PIDS[@]}")
  local cpu_per_gb
  cpu_per_gb=$(/usr/bin/python3 -c "
import json, os
d = json.load(open('$WORK/$name.json'))
gb = d['end']['sum_received']['bytes'] / 1e9
print('-' if $c1 == $c0 else f'{($c1 - $c0) / os.sysconf(\"SC_CLK_TCK\") / gb:.2f}')")
  GBPS=$(/usr/bin/python3 -c "import json; d=json.load(open('$WORK/$name.json')); print(round(d['end']['sum_received']['bits_per_second']/1e9, 3))")
  local retr
  retr=$(/usr/bin/python3 -c "import json; d=json.load(open('$WORK/$name.json')); print(d['end']['sum_sent'].get('retransmits', -1))")
  printf '%-16s %7.3f Gbit/s  cpu_s_per_GB %5s  tcp_retransmits %s  outer_fragments_created_gw1 %s\n' \
    "$name" "$GBPS" "$cpu_per_gb" "$retr" "$((f1 - f0))"
}

# ncgw TRANSPORT [SECURITY [OFFLOAD [nohc]]]: start both gateways (security none: in clear; aead:
# encrypted with fresh keys; tun.offload OFFLOAD, default auto; nohc: tcpnc without inner header
# compression), measure, stop them (routes go with them).
ncgw_variant() {
  local t=$1 sec=${2:-none} offload=${3:-auto} hc=${4:-} g
  for g in gw1 gw2; do
    [ -f "$WORK/$g.key" ] || { (umask 077; "$NCGW" genkey > "$WORK/$g.key"); "$NCGW" pubkey < "$WORK/$g.key" > "$WORK/$g.pub"; }
  done
  for g in gw1 gw2; do
    local peer tun ep remote
    if [ $g = gw1 ]; then peer=gw2; tun=10.99.0.1/30; ep=192.168.77.2; remote=10.2.0.0/24
    else peer=gw1; tun=10.99.0.2/30; ep=192.168.77.1; remote=10.1.0.0/24; fi
    local keys="security: none"
    [ "$sec" = aead ] && keys="public_key: $(cat "$WORK/$peer.pub")"
    [ "$hc" = nohc ] && keys="$keys, tcpnc: {header_compression: false}"
    cat > "$WORK/$g-$t.yaml" <<YAML
gateway: {name: ${NS_PREFIX}-$g, private_key_file: $WORK/$g.key}
tun: {name: ncgw0, addresses: [$tun], offload: $offload}
peers:
  - {name: ${NS_PREFIX}-$peer, endpoint: $ep, transport: $t, $keys}
routes:
  - {prefix: $remote, via: ${NS_PREFIX}-$peer}
logging: {level: warn}
YAML
    ns_bg $g "$NCGW" run --config "$WORK/$g-$t.yaml" > "$WORK/$g-$t.log" 2>&1
    eval "PID_$g=$LAST_PID"
    WAIT_SECONDS=10 wait_for test -S "/run/ncgw/${NS_PREFIX}-$g.sock" || fail "ncgw $t $g did not start: $(tail -3 "$WORK/$g-$t.log")"
  done
  NCGW_MTU=$(nsx gw1 cat /sys/class/net/ncgw0/mtu)
  TUNNEL_PIDS=("$PID_gw1" "$PID_gw2")
  local name=ncgw_$t
  if [ "$sec" = aead ]; then name+=_enc; fi
  if [ "$offload" = off ]; then name+=_nooffload; fi
  if [ "$hc" = nohc ]; then name+=_nohc; fi
  measure "$name"
  if [ -n "${STATUS_DIR:-}" ]; then
    mkdir -p "$STATUS_DIR"
    for g in gw1 gw2; do "$NCGW" status --name "${NS_PREFIX}-$g" --json > "$STATUS_DIR/$name-$g.json" || true; done
  fi
  echo "             (TUN MTU $NCGW_MTU)"
  kill "$PID_gw1" "$PID_gw2"
  wait "$PID_gw1" "$PID_gw2" 2>/dev/null || true
}

# openvpn_certs: a throw-away CA and a certificate for each side (TLS mode, for AES-256-GCM).
openvpn_certs() {
  local d=$WORK/pki s
  mkdir -p "$d"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=bench-ca \
    -keyout "$d/ca.key" -out "$d/ca.crt" 2>/dev/null
  for s in gw1 gw2; do
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=$s" \
      -keyout "$d/$s.key" -out "$d/$s.csr" 2>/dev/null
    openssl x509 -req -in "$d/$s.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -CAcreateserial -days 1 \
      -out "$d/$s.crt" 2>/dev/null
  done
}

# openvpn udp|tcp|udp_gcm MTU: p2p tunnel (static key without crypto, or TLS with AES-256-GCM),
# measure, stop.
openvpn_variant() {
  local proto=$1 mtu=$2 p1 p2
  case "$proto" in udp|udp_gcm) p1=udp; p2=udp ;; *) p1=tcp-server; p2=tcp-client ;; esac
  local common=(--dev tun0 --dev-type tun --tun-mtu "$mtu" --mssfix 0 --port 1194 --verb 3 --ping 10)
  local c1=() c2=()
  if [ "$proto" = udp_gcm ]; then
    local d=$WORK/pki
    common+=(--ca "$d/ca.crt" --dh none --data-ciphers AES-256-GCM --cipher AES-256-GCM)
    c1=(--tls-server --cert "$d/gw1.crt" --key "$d/gw1.key")
    c2=(--tls-client --cert "$d/gw2.crt" --key "$d/gw2.key")
  else
    common+=(--secret "$WORK/static.key" --cipher none --auth none)
  fi
  ns_bg gw1 openvpn "${common[@]}" "${c1[@]}" --proto "$p1" --local 192.168.77.1 --ifconfig 10.98.0.1 10.98.0.2 \
    > "$WORK/ovpn-gw1-$proto.log" 2>&1
  local o1=$LAST_PID
  [ "$proto" = tcp ] && sleep 0.5
  ns_bg gw2 openvpn "${common[@]}" "${c2[@]}" --proto "$p2" --remote 192.168.77.1 --ifconfig 10.98.0.2 10.98.0.1 \
    > "$WORK/ovpn-gw2-$proto.log" 2>&1
  local o2=$LAST_PID
  WAIT_SECONDS=15 wait_for grep -q "Initialization Sequence Completed" "$WORK/ovpn-gw1-$proto.log" \
    || fail "openvpn $proto gw1: $(tail -5 "$WORK/ovpn-gw1-$proto.log")"
  WAIT_SECONDS=15 wait_for grep -q "Initialization Sequence Completed" "$WORK/ovpn-gw2-$proto.log" \
    || fail "openvpn $proto gw2: $(tail -5 "$WORK/ovpn-gw2-$proto.log")"
  [ "$proto" = udp_gcm ] && { grep -q "AES-256-GCM" "$WORK/ovpn-gw1-$proto.log" \
    || fail "openvpn udp_gcm: data channel is not AES-256-GCM: $(grep -i cipher "$WORK/ovpn-gw1-$proto.log" | tail -3)"; }
  nsx gw1 ip route replace 10.2.0.0/24 dev tun0
  nsx gw2 ip route replace 10.1.0.0/24 dev tun0
  TUNNEL_PIDS=("$o1" "$o2")
  measure "openvpn_$proto"
  kill "$o1" "$o2"
  wait "$o1" "$o2" 2>/dev/null || true
}

echo "== $(date -u +%FT%TZ) iperf3 TCP h1 -> h2, ${SECONDS_PER_FLOW} s per flow (first $OMIT s omitted); ncgw $("$NCGW" --version | head -1); $(openvpn --version | head -1 | cut -d' ' -f1-2)"
direct_routes add
TUNNEL_PIDS=()
measure direct
DIRECT=$GBPS
direct_routes del

# Interleaved so that a drift of the machine's speed during the run (it is shared) touches both
# sides of each comparison alike: each offload pair back to back, each OpenVPN variant beside the
# ncgw variant it is compared with.
openvpn --genkey secret "$WORK/static.key" 2>/dev/null
# want NAME: whether variant NAME runs (ONLY unset: all of them).
want() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }
PLAIN=0 OVPN_UDP=0 PLAIN_NOOFF=0 TCPNC=0 TCPNC_NOHC=0 TCPNC_NOOFF=0 UDT=0 UDT_NOOFF=0 PLAIN_ENC=0
OVPN_GCM=0 TCPNC_ENC=0 UDT_ENC=0 OVPN_TCP=0
PLAIN_MTU=0 PLAIN_ENC_MTU=0
# ncgw plain's TUN MTUs size OpenVPN's: plain (and plain_enc) run whenever an OpenVPN variant does.
if [[ " ${ONLY:-} " == *" openvpn_"* ]]; then ONLY="$ONLY plain plain_enc"; fi
want plain && { ncgw_variant plain; PLAIN=$GBPS; PLAIN_MTU=$NCGW_MTU; }
want openvpn_udp && { openvpn_variant udp "$PLAIN_MTU"; OVPN_UDP=$GBPS; }
want plain_nooffload && { ncgw_variant plain none off; PLAIN_NOOFF=$GBPS; }
want tcpnc && { ncgw_variant tcpnc; TCPNC=$GBPS; }
want tcpnc_nohc && { ncgw_variant tcpnc none auto nohc; TCPNC_NOHC=$GBPS; }
want tcpnc_nooffload && { ncgw_variant tcpnc none off; TCPNC_NOOFF=$GBPS; }
want udt && { ncgw_variant udt; UDT=$GBPS; }
want udt_nooffload && { ncgw_variant udt none off; UDT_NOOFF=$GBPS; }
want plain_enc && { ncgw_variant plain aead; PLAIN_ENC=$GBPS; PLAIN_ENC_MTU=$NCGW_MTU; }
want openvpn_udp_gcm && { openvpn_certs; openvpn_variant udp_gcm "$PLAIN_ENC_MTU"; OVPN_GCM=$GBPS; }
want tcpnc_enc && { ncgw_variant tcpnc aead; TCPNC_ENC=$GBPS; }
want udt_enc && { ncgw_variant udt aead; UDT_ENC=$GBPS; }
want openvpn_tcp && { openvpn_variant tcp "$PLAIN_MTU"; OVPN_TCP=$GBPS; }

echo "tcpnc_gbps=$TCPNC udt_gbps=$UDT openvpn_tcp_gbps=$OVPN_TCP"
echo "encrypted: plain_enc_gbps=$PLAIN_ENC tcpnc_enc_gbps=$TCPNC_ENC udt_enc_gbps=$UDT_ENC openvpn_aes256gcm_gbps=$OVPN_GCM (clear: $PLAIN $TCPNC $UDT)"
ratio() { /usr/bin/python3 -c "print(f'{$1 / $2:.2f}' if $2 > 0 else 'nan')"; }
echo "offloads off: plain_gbps=$PLAIN_NOOFF tcpnc_gbps=$TCPNC_NOOFF udt_gbps=$UDT_NOOFF (on: $PLAIN $TCPNC $UDT)"
echo "header compression off: tcpnc_gbps=$TCPNC_NOHC (on: $TCPNC)"
echo "ncgw_tcpnc_over_openvpn=$(ratio "$TCPNC" "$OVPN_UDP")"
echo "ncgw_aead_over_openvpn_aead=$(ratio "$PLAIN_ENC" "$OVPN_GCM")"
/usr/bin/python3 -c "print(f'direct_gbps=$DIRECT openvpn_gbps=$OVPN_UDP ncgw_gbps=$PLAIN ncgw_over_openvpn={$PLAIN / $OVPN_UDP:.2f}' if $OVPN_UDP > 0 else 'direct_gbps=$DIRECT openvpn_gbps=$OVPN_UDP ncgw_gbps=$PLAIN ncgw_over_openvpn=nan')"
