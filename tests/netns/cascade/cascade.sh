#!/usr/bin/env bash
# netns test: three cascaded gateways over TCP/NC.
#   h1 10.1.0.2 - gw1 =[L12: linkem, 10 ms, 10% loss gw1->gw2]= gw2 =[L23: same, gw2->gw3]= gw3 - h2 10.3.0.2
# The gw3 -> h2 edge link is the bottleneck (TBF, $EDGE_MBIT Mbit/s). Checks, in order:
#  1. end-to-end TCP without tunnels (kernel routing through gw1..gw3) over the lossy links;
#  2. the same iperf3 through the cascade: >= 90% of the edge rate and >= 2x step 1;
#     gw2 forwards in-process (forwarded counters, no TUN round trip) and its status alone shows
#     both sessions with their own loss estimates (gw1 session: rx_loss_rate of the incoming hop;
#     gw3 session: loss_rate_est of the outgoing hop, both ~LOSS);
#  3. TTL walk (ping -t 1..4): TTL 2 expires at gw2, answered with ICMP from gw2's TUN address;
#  4. internal/external (gw1 and gw3 have internal_interfaces [lan0], gw2 none): traffic to
#     non-remote prefixes is routed normally; a packet to the remote prefix that arrives on gw1's
#     external interface (from x1) is routed by the main table (net unreachable, no TUN packet),
#     h1's and gw1's own traffic to it enters the tunnel; the rules and the table go at shutdown.
# Usage: cascade.sh /path/to/ncgw /path/to/linkem
set -euo pipefail
NCGW=$(realpath "$1")
LINKEM=$(realpath "$2")
HERE=$(cd "$(dirname "$0")/.." && pwd)
NS_PREFIX="nc$$"
WORK=$(mktemp -d)
EDGE_MBIT=${EDGE_MBIT:-4}
LOSS=${LOSS:-0.1}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-15}
SEED=${SEED:-7}
GW_LOG_FILES=1
source "$HERE/lib/netns.sh"
source "$HERE/lib/ncgw.sh"
trap 'rc=$?; ns_cleanup; rm -rf "$WORK"; exit $rc' EXIT

# Joins gateways $1 and $2 through a linkem namespace L$3 (subnet 192.168.$3.0/24, .1 on $1's side
# as wan$4, .2/.3 on $2's side); loss only in the $1 -> $2 direction.
lossy_link() {
  local a="$1" b="$2" net="$3" a_ip="$4" b_ip="$5" ln="L$3"
  ns_add "$ln"
  ip link add "to$net" netns "$NS_PREFIX-$a" type veth peer name la netns "$NS_PREFIX-$ln"
  ip link add lb netns "$NS_PREFIX-$ln" type veth peer name "to$net" netns "$NS_PREFIX-$b"
  for end in "$a to$net" "$ln la" "$ln lb" "$b to$net"; do
    set -- $end
    nsx "$1" ip link set "$2" up
    offloads_off "$1" "$2"
  done
  nsx "$a" ip addr add "192.168.$net.$a_ip/24" dev "to$net"
  nsx "$b" ip addr add "192.168.$net.$b_ip/24" dev "to$net"
  ns_bg "$ln" "$LINKEM" run --a la --b lb --seed "$((SEED + net))" --control "$WORK/linkem-$net.sock" \
    --both "delay=10ms limit=100p" --a2b "loss=bernoulli:$LOSS" > "$WORK/linkem-$net.log" 2>&1
  wait_for test -S "$WORK/linkem-$net.sock" || fail "linkem on $ln did not start"
}

# Writes gateway $1's config: TUN address $2, internal interfaces $3 (YAML list), then
# "peer endpoint prefix" triples.
write_config() {
  local me="$1" tun="$2" internal="$3"; shift 3
  { echo "gateway: {name: $NS_PREFIX-$me, internal_interfaces: $internal, private_key_file: $WORK/$NS_PREFIX-$me.key}"
    echo "tun: {name: ncgw0, addresses: [$tun]}"
    echo "peers:"
    local args=("$@") i
    for ((i = 0; i < ${#args[@]}; i += 3)); do
      echo "  - {name: ${args[i]}, endpoint: ${args[i+1]}, transport: tcpnc, public_key: $(cat "$WORK/${args[i]}.pub")}"
    done
    echo "routes:"
    for ((i = 0; i < ${#args[@]}; i += 3)); do echo "  - {prefix: ${args[i+2]}, via: ${args[i]}}"; done
    echo "logging: {level: info}"
  } > "$WORK/$me.yaml"
}

# Runs iperf3 TCP h1 -> h2 for SECONDS_PER_RUN (after 2 s of slow start left out) on port $1;
# prints receiver goodput in Mbit/s.
iperf_mbit() {
  ns_bg h2 iperf3 -s -1 -p "$1" > /dev/null 2>&1
  sleep 0.5
  nsx h1 iperf3 -c 10.3.0.2 -p "$1" -t "$SECONDS_PER_RUN" -O 2 -J > "$WORK/iperf-$1.json" || fail "iperf3 on port $1 failed"
  /usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["end"]
s = d["streams"][0]["sender"]
print("sender retransmits %s, mean RTT %.1f ms, max RTT %.1f ms" % (d["sum_sent"].get("retransmits"),
      s.get("mean_rtt", 0) / 1e3, s.get("max_rtt", 0) / 1e3), file=sys.stderr)' "$WORK/iperf-$1.json"
  json_get 'round(d["end"]["sum_received"]["bits_per_second"]/1e6,3)' < "$WORK/iperf-$1.json"
}

echo "== topology (loss $LOSS per inter-gateway link, edge gw3->h2 $EDGE_MBIT Mbit/s, seed $SEED)"
for n in h1 gw1 gw2 gw3 h2; do ns_add $n; done
veth_link h1 eth0 gw1 lan0 10.1.0.2/24 10.1.0.1/24
veth_link gw3 lan0 h2 eth0 10.3.0.1/24 10.3.0.2/24
for end in "h1 eth0" "gw1 lan0" "gw3 lan0" "h2 eth0"; do offloads_off $end; done
lossy_link gw1 gw2 12 1 2
lossy_link gw2 gw3 23 2 3
nsx h1 ip route add default via 10.1.0.1
nsx h2 ip route add default via 10.3.0.1
for g in gw1 gw2 gw3; do gateway_sysctls $g; done
# End hosts as in paper 002 (NewReno-like Linux TCP: reno, no SACK, window scaling and timestamps off).
for h in h1 h2; do
  nsx $h sysctl -qw net.ipv4.tcp_congestion_control=reno net.ipv4.tcp_sack=0 net.ipv4.tcp_timestamps=0 \
    net.ipv4.tcp_window_scaling=0
done
nsx gw3 tc qdisc add dev lan0 root tbf rate "${EDGE_MBIT}mbit" burst 8kb limit 150000

echo "== 1. end-to-end TCP without tunnels"
nsx gw1 ip route add 10.3.0.0/24 via 192.168.12.2
nsx gw2 ip route add 10.3.0.0/24 via 192.168.23.3
nsx gw2 ip route add 10.1.0.0/24 via 192.168.12.1
nsx gw3 ip route add 10.1.0.0/24 via 192.168.23.2
WAIT_SECONDS=10 wait_for nsx h1 ping -c 1 -W 1 10.3.0.2 || fail "no e2e path"
e2e=$(iperf_mbit 5301)
echo "e2e TCP: $e2e Mbit/s"
nsx gw1 ip route del 10.3.0.0/24
nsx gw2 ip route del 10.3.0.0/24
nsx gw2 ip route del 10.1.0.0/24
nsx gw3 ip route del 10.1.0.0/24

echo "== 2. TCP through the cascade"
for g in gw1 gw2 gw3; do make_gateway_key "$NS_PREFIX-$g"; done
write_config gw1 10.99.0.1/24 "[lan0]" "$NS_PREFIX-gw2" 192.168.12.2 10.3.0.0/24
write_config gw2 10.99.0.2/24 "[]" "$NS_PREFIX-gw1" 192.168.12.1 10.1.0.0/24 "$NS_PREFIX-gw3" 192.168.23.3 10.3.0.0/24
write_config gw3 10.99.0.3/24 "[lan0]" "$NS_PREFIX-gw2" 192.168.23.2 10.1.0.0/24
for g in gw1 gw2 gw3; do start_gateway $g; done
GW1_PID=$GW_PID_gw1
WAIT_SECONDS=15 wait_for nsx h1 ping -c 1 -W 1 10.3.0.2 || fail "no ping reply through the cascade"
tunnel=$(iperf_mbit 5302)
echo "cascade TCP: $tunnel Mbit/s (edge rate $EDGE_MBIT Mbit/s, e2e $e2e Mbit/s)"
gw_status gw2 > "$WORK/gw2.json"
/usr/bin/python3 - "$WORK/gw2.json" "$NS_PREFIX" <<'PY' || fail "gw2 status check failed"
import json, sys
gw2, prefix = json.load(open(sys.argv[1])), sys.argv[2]
peers = {p["name"]: p for p in gw2["peers"]}
ok = len(peers) == 2
print("gw2 sessions (ncgw status --json of the intermediate gateway):")
for name, p in peers.items():
    c = p["core"]
    print(f"  {name}: established={c.get('established')} rx_loss_rate={c.get('rx_loss_rate', -1):.4f} "
          f"loss_rate_est={c.get('loss_rate_est', -1):.4f} loss_rate_long={c.get('loss_rate_long', -1):.4f} "
          f"k={c.get('k')} n={c.get('n')} forwarded_from={p['forwarded_from']} forwarded_to={p['forwarded_to']} "
          f"tun_packets_routed={p['tun_packets_routed']} datagrams_in={p['datagrams_in']} out={p['datagrams_out']}")
    ok &= c.get("established") == 1
from_gw1, to_gw3 = peers[f"{prefix}-gw1"], peers[f"{prefix}-gw3"]
print(f"gw2 counters: forwarded_packets={gw2['counters']['forwarded_packets']} "
      f"tun_rx_packets={gw2['counters']['tun_rx_packets']}")
# gw2 sees both hops' loss (10% configured in both data directions), each in its own session:
# the gw1 session's receiver measures the incoming hop gw1 -> gw2 (rx_loss_rate), the gw3
# session's sender estimates the outgoing hop gw2 -> gw3 (loss_rate_est).
rx_in, est_out = from_gw1["core"].get("rx_loss_rate", -1), to_gw3["core"].get("loss_rate_est", -1)
print(f"gw2 loss estimates: hop gw1->gw2 (rx_loss_rate of the gw1 session) {rx_in:.4f}, "
      f"hop gw2->gw3 (loss_rate_est of the gw3 session) {est_out:.4f}; need each in [0.05, 0.2]")
ok &= 0.05 <= rx_in <= 0.2 and 0.05 <= est_out <= 0.2
# Forwarded in-process: many packets, none through gw2's TUN (which would count tun_packets_routed).
ok &= gw2["counters"]["forwarded_packets"] > 1000 and to_gw3["tun_packets_routed"] == 0
sys.exit(0 if ok else 1)
PY
/usr/bin/python3 -c "
import sys; t, e, edge = float('$tunnel'), float('$e2e'), float('$EDGE_MBIT')
print(f'cascade / edge rate = {t/edge:.3f} (need >= 0.9); cascade / e2e = {t/max(e,1e-9):.2f} (need >= 2)')
sys.exit(0 if t >= 0.9 * edge and t >= 2 * e else 1)" || fail "cascade goodput $tunnel Mbit/s too low"

echo "== 3. TTL walk h1 -> h2 (ping -t 1..4)"
for ttl in 1 2 3 4; do
  out=$(nsx h1 ping -n -c 1 -W 2 -t $ttl 10.3.0.2 2>&1 || true)
  line=$(echo "$out" | grep -E "From|bytes from" | head -1)
  echo "  ttl $ttl: ${line:-no answer}"
  [ $ttl = 2 ] && ttl2="$line"
  [ $ttl = 3 ] && ttl3="$line"
  [ $ttl = 4 ] && ttl4="$line"
done
echo "$ttl2" | grep -q "From 10.99.0.2 .*Time to live exceeded" || fail "TTL 2 not answered by gw2 (10.99.0.2)"
# gw3's kernel answers TTL 3 towards h1: locally originated, so it must use gw3's tunnel table.
echo "$ttl3" | grep -q "From 10.99.0.3 .*Time to live exceeded" || fail "TTL 3 not answered by gw3 (10.99.0.3)"
echo "$ttl4" | grep -q "bytes from 10.3.0.2" || fail "TTL 4 did not reach h2"
gw_status gw2 | json_get 'd["counters"]["ttl_expired"], d["counters"]["icmp_time_exceeded_sent"], d["peers"][0]["icmp_time_exceeded_sent"]' > "$WORK/ttl"
echo "gw2 ttl_expired, icmp_time_exceeded_sent, ICMP into the gw1 session: $(cat "$WORK/ttl")"
read -r expired sent into_gw1 < <(tr -d '(),' < "$WORK/ttl")
[ "$expired" -ge 1 ] && [ "$sent" -ge 1 ] && [ "$into_gw1" -ge 1 ] || fail "gw2 did not count the expiry"

echo "== 4. internal/external: only traffic from the internal side enters the tunnel"
tun_rx() { gw_status gw1 | json_get 'd["counters"]["tun_rx_packets"]'; }
nsx gw1 ip rule show | grep "lookup 5100" | sed 's/^/  gw1 rule: /'
nsx gw1 ip route show table 5100 | sed 's/^/  gw1 table 5100: /'
tun1=$(tun_rx)
nsx h1 ping -n -c 3 -i 0.2 -W 1 192.168.12.2 > /dev/null || fail "gw2's underlay address not reachable by normal routing"
nsx h1 ping -n -c 3 -i 0.2 -W 1 10.99.0.1 > /dev/null || fail "gw1's TUN address not reachable locally"
tun2=$(tun_rx)
echo "gw1 tun_rx_packets $tun1 -> $tun2 across 6 pings from h1 to non-remote addresses"
[ "$tun1" = "$tun2" ] || fail "traffic to a non-remote prefix entered the tunnel"
nsx h1 ping -n -c 3 -i 0.2 -W 1 10.3.0.2 > /dev/null || fail "remote prefix not reachable from h1"
tun3=$(tun_rx)
echo "gw1 tun_rx_packets $tun2 -> $tun3 across 3 pings from h1 (internal) to the remote prefix"
[ "$tun3" -ge $((tun2 + 3)) ] || fail "traffic from the internal side to the remote prefix did not enter the tunnel"
# x1 sits on a second external interface of gw1 (wan9); gw1's main table has no route to 10.3.0.0/24.
ns_add x1
veth_link x1 eth0 gw1 wan9 192.168.9.2/24 192.168.9.1/24
nsx x1 ip route add default via 192.168.9.1
out=$(nsx x1 ping -n -c 3 -i 0.2 -W 1 10.3.0.2 2>&1 || true)
tun4=$(tun_rx)
echo "x1 (external) -> 10.3.0.2: $(echo "$out" | grep -m1 -E "From|bytes from" || echo "no answer")"
echo "gw1 tun_rx_packets $tun3 -> $tun4 across 3 pings from x1 (external) to the remote prefix"
[ "$tun4" = "$tun3" ] || fail "traffic from the external side entered the tunnel"
echo "$out" | grep -q "From 192.168.9.1 .*Destination Net Unreachable" || fail "gw1 did not route x1's packet by its main table"
nsx x1 ping -n -c 1 -W 1 10.1.0.2 > /dev/null || fail "x1 cannot reach h1 (normal routing; replies fall through gw1's table)"
nsx gw1 ping -n -c 3 -i 0.2 -W 2 -I 10.1.0.1 10.3.0.2 > /dev/null || fail "gw1's own traffic to the remote prefix failed"
tun5=$(tun_rx)
echo "gw1 tun_rx_packets $tun4 -> $tun5 across 3 pings from gw1 itself (locally originated)"
[ "$tun5" -ge $((tun4 + 3)) ] || fail "locally originated traffic to the remote prefix did not enter the tunnel"
kill -TERM "$GW1_PID"
# A stopped child stays a zombie until waited for: wait until it is one, then reap it.
wait_for bash -c "! kill -0 $GW1_PID 2>/dev/null || grep -q '^State:.*Z' /proc/$GW1_PID/status" || fail "gw1 did not stop"
wait "$GW1_PID" || true
left=$( (nsx gw1 ip rule show; nsx gw1 ip -6 rule show; nsx gw1 ip route show table 5100 2>/dev/null) | grep -c "5100" || true)
echo "gw1 stopped: rules and routes of table 5100 left: $left"
[ "$left" = 0 ] || fail "gw1 left policy rules or table routes behind"
echo "PASS"
