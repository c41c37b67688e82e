# Checks of two_gateway_tunnel.sh, one function per claim the gateway makes (routing, counters, drops, restart). Needs lib/netns.sh and
# lib/two_gateways.sh sourced, HERE, WORK, TRANSPORT, PORT (the transport's UDP port) set, and
# gateways gw1 and gw2 running.

# Runs tests/netns/lib/forge.py in namespace $1 with the remaining arguments.
forge() { local ns="$1"; shift; nsx "$ns" /usr/bin/python3 "$HERE/lib/forge.py" "$@"; }

# Prints a value of gateway $1's status JSON: a python expression $2 over `d`, `p` (first peer)
# and `c` (first peer's core stats).
counter() {
  gw_status "$1" | /usr/bin/python3 -c "
import json, sys
d = json.load(sys.stdin); p = d['peers'][0]; c = p['core']
print(int($2))"
}

# Waits (at most 5 s) until counter $1 $2 is at least $3; true if it got there.
wait_counter() {
  local deadline=$(( $(date +%s) + 5 ))
  until [ "$(counter "$1" "$2")" -ge "$3" ]; do
    [ "$(date +%s)" -ge "$deadline" ] && return 1
    sleep 0.1
  done
}

# True when something in namespace $1 listens on UDP port $2.
udp_bound() { nsx "$1" ss -Hlun "sport = :$2" | grep -q .; }

# A forged datagram from a non-peer address does not reach h2 and is counted as unknown sender.
check_forged_datagrams() {
  echo "== forged datagram from a non-peer address"
  # The forgery is a datagram gw2's plain core would accept: current version, the tunnel's real
  # session id (derived from the two gateways' endpoints, as the gateways do), carrying a UDP packet
  # for h2:9999. It comes from 192.168.77.3, which is not gw2's peer: only the sender check can
  # stop it. Control (plain): the same datagram from gw1's own address and port does reach h2.
  local endpoints="192.168.77.1:$PORT 192.168.77.2:$PORT" expected=1 before after received seq
  nsx gw1 ip addr add 192.168.77.3/24 dev wan0
  before=$(counter gw2 'd["counters"]["drop_unknown_sender"]')
  ns_bg h2 /usr/bin/python3 "$HERE/lib/udp_count.py" 10.2.0.2 9999 3 "$WORK/udp_count"
  local count_pid=$LAST_PID
  wait_for udp_bound h2 9999 || fail "udp_count did not start"
  forge h1 legit 10.2.0.2 9999                                    # control: via the tunnel
  forge gw1 forged 192.168.77.3 192.168.77.2 "$PORT" 10.1.0.2 10.2.0.2 9999 $endpoints
  local sec_before sec_after
  if [ "${SECURITY:-aead}" != none ]; then
    # Secured: the same forgery from gw1's own address and port must stop at the secure layer.
    sec_before=$(counter gw2 "$SEC_DROPS")
    forge gw1 forged "192.168.77.1:$PORT" 192.168.77.2 "$PORT" 10.1.0.2 10.2.0.2 9999 $endpoints 0
  elif [ "$TRANSPORT" = plain ]; then
    # gw1's next sequence number, so the impersonation does not disturb gw2's loss accounting.
    seq=$(counter gw1 'c["tx_packets"] + c["keepalives_sent"]')
    forge gw1 forged "192.168.77.1:$PORT" 192.168.77.2 "$PORT" 10.1.0.2 10.2.0.2 9999 $endpoints "$seq"
    expected=2
  fi
  wait "$count_pid" || true
  received=$(cat "$WORK/udp_count" 2>/dev/null || echo -1)
  after=$(counter gw2 'd["counters"]["drop_unknown_sender"]')
  echo "h2 received $received datagram(s) (expected $expected: the legitimate one" \
       "$([ $expected = 2 ] && echo "and the forgery sent from gw1's own address")); drop_unknown_sender $before -> $after"
  [ "$received" = "$expected" ] || fail "h2 received $received datagrams, expected $expected"
  [ "$after" -gt "$before" ] || fail "forged datagram not counted as unknown sender"
  if [ "${SECURITY:-aead}" != none ]; then
    sec_after=$(counter gw2 "$SEC_DROPS")
    echo "gw2 secure-layer drops $sec_before -> $sec_after (the forgery from gw1's own address)"
    [ "$sec_after" -gt "$sec_before" ] || fail "the forgery from gw1's address was not counted by the secure layer"
  fi
}

# Sum of gw2's secure-layer drop counters (a python expression for `counter`).
SEC_DROPS='sum(v for k, v in c.items() if k.startswith("sec_drop_"))'

# Malformed datagrams from the peer's own address and port are counted; the daemon keeps running.
# Secured, the secure layer drops and counts them (the transport's parser never sees them).
check_malformed_from_peer() {
  echo "== malformed datagrams from gw1's own address and port"
  local mode=runts in_before in_after n bad_before bad_after drops='c["drop_malformed"]' counted=plain
  [ "$TRANSPORT" = plain ] && mode=garbage
  [ "${SECURITY:-aead}" != none ] && { drops=$SEC_DROPS; counted=yes; }
  [ "$counted" = plain ] && [ "$TRANSPORT" != plain ] && counted=no
  in_before=$(counter gw2 'p["datagrams_in"]')
  [ "$counted" != no ] && bad_before=$(counter gw2 "$drops")
  n=$(forge gw1 "$mode" "192.168.77.1:$PORT" 192.168.77.2 "$PORT")
  wait_counter gw2 'p["datagrams_in"]' $((in_before + n)) || fail "gw2 did not count the $n malformed datagrams"
  in_after=$(counter gw2 'p["datagrams_in"]')
  echo "sent $n $mode; gw2 datagrams_in from gw1 $in_before -> $in_after"
  if [ "$counted" != no ]; then
    bad_after=$(counter gw2 "$drops")
    echo "gw2 drops ($drops) $bad_before -> $bad_after"
    [ "$bad_after" -eq $((bad_before + n)) ] || fail "drops rose by $((bad_after - bad_before)), expected $n"
  fi
  kill -0 "$GW_PID_gw2" 2>/dev/null || fail "gw2 died on malformed input"
  nsx h1 ping -c 1 -W 2 10.2.0.2 >/dev/null || fail "no ping through the tunnel after malformed input"
}

# A packet that enters the TUN for a destination without a route is dropped and counted.
check_no_route() {
  echo "== a TUN packet without a route (gw1 pings 10.99.0.2, the TUN's /30 peer: no ncgw route)"
  local before after
  before=$(counter gw1 'd["counters"]["drop_no_route"]')
  nsx gw1 ping -c 3 -i 0.2 -W 1 10.99.0.2 >/dev/null 2>&1 && fail "10.99.0.2 answered: it has no route"
  wait_counter gw1 'd["counters"]["drop_no_route"]' $((before + 3)) || true
  after=$(counter gw1 'd["counters"]["drop_no_route"]')
  echo "gw1 drop_no_route $before -> $after"
  [ "$after" -ge $((before + 3)) ] || fail "drop_no_route rose by $((after - before)), expected at least 3"
  kill -0 "$GW_PID_gw1" 2>/dev/null || fail "gw1 died"
}

# (plain) Datagrams nftables drops between gw1 and gw2 show at gw2 as exactly that many rx_lost.
check_wire_loss_counted() {
  echo "== datagrams dropped on the wire are counted by the receiver (rx_lost)"
  local before after dropped
  nsx gw1 nft -f - <<'NFT'
table ip ncgw_test_loss {
  chain out {
    type filter hook output priority 0; policy accept;
    udp dport 5500 numgen inc mod 4 == 0 counter drop
  }
}
NFT
  before=$(counter gw2 'c["rx_lost"]')
  nsx h1 ping -c 20 -i 0.05 -W 1 10.2.0.2 | grep 'packets transmitted' || true
  dropped=$(nsx gw1 nft list table ip ncgw_test_loss | sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
  nsx gw1 nft delete table ip ncgw_test_loss
  nsx h1 ping -c 2 -i 0.2 -W 1 10.2.0.2 >/dev/null || fail "no ping after the loss rule was removed"
  after=$(counter gw2 'c["rx_lost"]')
  echo "nftables dropped $dropped datagram(s) gw1 -> gw2; gw2 rx_lost $before -> $after" \
       "(reordered $(counter gw2 'c["rx_reordered"]'), resyncs $(counter gw2 'c["rx_seq_resyncs"]'))"
  [ "$dropped" -gt 0 ] || fail "the nftables rule dropped nothing"
  [ $((after - before)) -eq "$dropped" ] || fail "rx_lost rose by $((after - before)), expected $dropped"
}

# Prints the counters that show loss across an outage, for gateway $1.
outage_counters() {
  if [ "$TRANSPORT" = plain ]; then
    counter "$1" 'c["tx_while_peer_silent"]' | sed 's/^/tx_while_peer_silent=/' | tr '\n' ' '
    counter "$1" 'c["rx_lost"]' | sed 's/^/rx_lost=/' | tr '\n' ' '
    counter "$1" 'c["rx_seq_resyncs"]' | sed 's/^/rx_seq_resyncs=/' | tr '\n' ' '
  fi
  counter "$1" 'sum(x["send_errors"] for x in d["ports"])' | sed 's/^/udp_send_errors=/' | tr '\n' ' '
  counter "$1" 'sum(x["receive_errors"] for x in d["ports"])' | sed 's/^/udp_receive_errors=/'
}

# Killing and restarting gw2 under a running iperf3 TCP session: the session continues after it;
# pings sent into the outage are lost, and (plain) gw1 counts what it sent into the silence.
check_restart() {
  echo "== restart gw2 under a running iperf3 TCP session"
  # plain: longer than its 3 s peer-silence timeout. UDT's caller needs its 3 s silence limit to
  # notice a restart, and the inner TCP then waits out its backed-off RTO.
  # plain's run is longer: the inner TCP's RTO has backed off to 3-6 s by the time gw2 is back,
  # and one retransmission lost soon after gw2 is back (seen once in CI, cause not traced) pushes
  # the next to ~19 s: data again at 18.9 s of a 20 s run, two good seconds where three are asked.
  # udt: the caller declares its channels broken after 3 s of silence and reconnects; the inner
  # TCP's retransmissions into the outage are ~6 s apart by then, so data is back ~6-8 s after the
  # restart on an idle machine (11-13 s into the run). In one CI run (parallel channels, loaded
  # machine) the reconnection missed the retransmission at ~10.7 s and the next came at ~17 s:
  # too late for a 20 s run. 30 s leaves the next backed-off retransmission inside the run.
  local outage=1 duration=20 iperf_pid ping_pid silent_before silent_after
  [ "$TRANSPORT" = plain ] && outage=5 && duration=30
  [ "$TRANSPORT" = udt ] && duration=30
  ns_bg h2 iperf3 -s -1 -p 5202
  sleep 0.5
  ns_bg h1 sh -c "iperf3 -c 10.2.0.2 -p 5202 -t $duration -i 1 -J > '$WORK/restart.json'"
  iperf_pid=$LAST_PID
  sleep 3.5
  ns_bg h1 sh -c "ping -i 0.1 -c $(( (outage + 2) * 10 )) -W 1 10.2.0.2 > '$WORK/outage_ping.txt'"
  ping_pid=$LAST_PID
  sleep 0.5
  echo "gw1 before the outage: $(outage_counters gw1)"
  [ "$TRANSPORT" = plain ] && silent_before=$(counter gw1 'c["tx_while_peer_silent"]')
  kill -9 "$GW_PID_gw2"
  sleep "$outage"
  start_gateway gw2
  wait "$ping_pid" || true
  wait "$iperf_pid" || fail "iperf3 across the restart failed"
  echo "gw1 after the outage:  $(outage_counters gw1)"
  echo "pings into the ${outage} s outage: $(grep 'packets transmitted' "$WORK/outage_ping.txt")"
  grep -q ' 0% packet loss' "$WORK/outage_ping.txt" && fail "no ping was lost across a ${outage} s outage"
  /usr/bin/python3 - "$WORK/restart.json" <<'PY' || fail "no data after the restart"
import json, sys
d = json.load(open(sys.argv[1]))
iv = [i["sum"]["bits_per_second"] / 1e6 for i in d["intervals"]]
print("per-second Mbit/s:", " ".join(f"{x:.0f}" for x in iv))
# Demand 3 good seconds in the last 8 (gw2 is down from ~4 s to ~5 s, or ~9 s for plain).
sys.exit(0 if sum(1 for x in iv[-8:] if x > 1) >= 3 else 1)
PY
  if [ "$TRANSPORT" = plain ]; then
    silent_after=$(counter gw1 'c["tx_while_peer_silent"]')
    [ "$silent_after" -gt "$silent_before" ] || fail "tx_while_peer_silent did not rise across the outage"
  fi
  echo "gw1 counters after the restart:"
  gw_status gw1 | json_get 'd["peers"][0]'
}

# Parallel UDT (udt.channels $1): both gateways hold $1 connected channels, and the iperf3 streams
# were spread over more than one (channels_with_data: channels that carried data either way).
check_parallel_channels() {
  echo "== parallel UDT channels: $1"
  local g n
  for g in gw1 gw2; do
    n=$(counter "$g" 'c["channels_connected"]')
    echo "$g: channels_connected=$n active=$(counter "$g" 'c["channels_active"]')" \
         "flow_moves=$(counter "$g" 'c["flow_moves"]') dropped_channel_lost=$(counter "$g" 'c["dropped_channel_lost"]')"
    [ "$n" -eq "$1" ] || fail "$g holds $n channels, expected $1"
  done
  n=$(counter gw2 'c["channels_with_data"]')
  echo "gw2: channels_with_data=$n"
  [ "$n" -ge 2 ] || fail "8 streams used $n channel(s)"
}
