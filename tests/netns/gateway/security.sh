#!/usr/bin/env bash
# netns test of the secure layer with real daemons (h1 - gw1 - gw2 - h2, transport plain: it
# delivers whatever authenticates, so only the secure layer stands between a replay and h2):
#  replay  datagrams captured on gw2's wire while h1 sends one UDP datagram to h2 are sent again,
#          byte for byte from gw1's address and port (raw socket), 1 s and REPLAY_LATE_S (default
#          60) s later: none reaches h2, gw2 counts them as replays;
#  flood   a handshake flood (valid mac1, spoofed from gw1's address and port, as fast as one raw
#          socket here sends) during an iperf3 TCP flow: the flow keeps at least 80% of the goodput
#          it has while the same sender floods the same port from a non-peer address (the sender's
#          CPU share and the receive path are not the secure layer's doing), gw2 answers with
#          cookies and stays small in memory;
#  rekey   keys rotate every 2 s (rekey_after_s: 2) under an iperf3 TCP flow for 60 s: no second
#          without progress, no datagram lost to rekeying (no key, unknown key, bad tag: 0);
#  keys    a wrong public key, then a wrong pre-shared key: no session, nothing reaches h2, and a
#          log line that says why.
# Usage: security.sh /path/to/ncgw
set -euo pipefail
NCGW=$(realpath "$1")
TRANSPORT=plain
PORT=5500
HERE=$(cd "$(dirname "$0")/.." && pwd)
NS_PREFIX="se$$"
WORK=$(mktemp -d)
GW_LOG_FILES=1
source "$HERE/lib/netns.sh"
source "$HERE/lib/two_gateways.sh"
source "$HERE/gateway/checks.sh"
trap 'rc=$?; ns_cleanup; rm -rf "$WORK"; exit $rc' EXIT
PY=/usr/bin/python3

# Stops both gateways (SIGTERM) and waits for them.
stop_gateways() {
  kill "$GW_PID_gw1" "$GW_PID_gw2" 2>/dev/null || true
  wait "$GW_PID_gw1" "$GW_PID_gw2" 2>/dev/null || true
}

# Counts UDP datagrams reaching h2:9999 during $1 seconds (in the background); sets COUNT_PID.
count_at_h2() {
  ns_bg h2 $PY "$HERE/lib/udp_count.py" 10.2.0.2 9999 "$1" "$WORK/count"
  COUNT_PID=$LAST_PID
  wait_for udp_bound h2 9999 || fail "udp_count did not start"
}

# Replays the capture in $WORK/cap.txt; checks nothing reaches h2 and gw2 counts the records.
replay_check() {
  local label=$1 before after records got
  before=$(counter gw2 'c["sec_drop_replay"] + c["sec_drop_unknown_key"]')
  count_at_h2 2
  records=$(nsx gw1 $PY "$HERE/lib/replay.py" "$WORK/cap.txt" 192.168.77.2 $PORT)
  wait "$COUNT_PID" || true
  got=$(cat "$WORK/count")
  after=$(counter gw2 'c["sec_drop_replay"] + c["sec_drop_unknown_key"]')
  echo "replay $label: $(wc -l < "$WORK/cap.txt") datagrams ($records data records) sent again; h2 received $got;" \
       "gw2 replay/unknown-key drops $before -> $after"
  [ "$got" = 0 ] || fail "a replayed datagram reached h2 ($label)"
  [ $((after - before)) -ge "$records" ] || fail "gw2 counted $((after - before)) replays, expected $records ($label)"
}

check_replay() {
  echo "== replayed datagrams"
  ns_bg gw2 $PY "$HERE/lib/capture.py" wan0 $PORT 2 "$WORK/cap.txt"
  local cap_pid=$LAST_PID
  sleep 0.5
  count_at_h2 1
  forge h1 legit 10.2.0.2 9999
  wait "$COUNT_PID" || true
  wait "$cap_pid" || fail "capture failed"
  [ "$(cat "$WORK/count")" = 1 ] || fail "the original datagram did not reach h2"
  grep -q '^192.168.77.1 ' "$WORK/cap.txt" || fail "nothing captured from gw1"
  sleep 1
  replay_check "after 1 s"
  sleep "${REPLAY_LATE_S:-60}"
  replay_check "after ${REPLAY_LATE_S:-60} s"
}

# iperf3 TCP h1 -> h2 for $1 s on port $2 into $WORK/$3.json (background); sets IPERF_PID. Paced at
# FLOW_RATE (default 400M): with TUN offloads an unpaced flow fills both shared cores, and the test
# would measure CPU sharing with the flood sender rather than what the secure layer does (at 800M
# the ratio sat at 0.76-0.80, the flow still CPU-bound once the sender took a core).
iperf_bg() {
  ns_bg h2 iperf3 -s -1 -p "$2"
  sleep 0.5
  ns_bg h1 sh -c "iperf3 -c 10.2.0.2 -p $2 -t $1 -i 1 -b ${FLOW_RATE:-400M} -J > '$WORK/$3.json'"
  IPERF_PID=$LAST_PID
}

# Goodput (Gbit/s) of iperf3 run $1 between seconds $2 and $3 of its intervals.
interval_gbps() {
  $PY -c "
import json
iv = json.load(open('$WORK/$1.json'))['intervals'][$2:$3]
print(round(sum(i['sum']['bits_per_second'] for i in iv) / len(iv) / 1e9, 3))"
}

check_flood() {
  echo "== handshake flood during an iperf3 flow"
  local pub rss_before rss_after control flood base during_control during ratio
  pub=$(cat "$WORK/gw2.pub")
  rss_before=$(ps -o rss= -p "$GW_PID_gw2" | tr -d ' ')
  iperf_bg 25 5301 flood
  sleep 6.5
  # Control: the same sender, the same datagrams, to the same port, from an address that is no
  # peer (the daemon's cheapest drop). On a machine of two cores the sender takes one, and any
  # datagram costs the kernel and the daemon's receive loop: what the secure layer's handling of
  # a handshake flood costs is the difference.
  nsx gw1 ip addr add 192.168.77.3/24 dev wan0 2>/dev/null || true
  control=$(nsx gw1 $PY "$HERE/lib/handshake_flood.py" 192.168.77.3 $PORT 192.168.77.2 $PORT "$pub" 8)
  sleep 1
  flood=$(nsx gw1 $PY "$HERE/lib/handshake_flood.py" 192.168.77.1 $PORT 192.168.77.2 $PORT "$pub" 8)
  wait "$IPERF_PID" || fail "iperf3 failed during the flood"
  rss_after=$(ps -o rss= -p "$GW_PID_gw2" | tr -d ' ')
  base=$(interval_gbps flood 1 6)
  during_control=$(interval_gbps flood 8 14)
  during=$(interval_gbps flood 17 23)
  ratio=$($PY -c "print(round($during / $during_control, 3))")
  echo "flood (sent, per second): control $control, handshake $flood; goodput: alone $base Gbit/s, with the" \
       "control flood $during_control, with the handshake flood $during (ratio $ratio); gw2 RSS $rss_before -> $rss_after kB"
  echo "gw2: cookie_needed $(counter gw2 'c["sec_drop_cookie_needed"]'), cookie replies $(counter gw2 'c["sec_cookie_replies_sent"]')," \
       "rate-limited $(counter gw2 'c["sec_drop_rate_limited"]'), failed in Noise $(counter gw2 'c["sec_drop_handshake_invalid"]')"
  $PY -c "import sys; sys.exit(0 if $ratio >= 0.8 else 1)" || fail "goodput fell to $ratio of its value under the control flood"
  [ "$rss_after" -lt $((rss_before + 20000)) ] || fail "gw2 grew from $rss_before to $rss_after kB"
  [ "$(counter gw2 'c["sec_drop_handshake_invalid"]')" -le 100 ] || fail "the flood reached Diffie-Hellman"
}

# Sum of the counters that would show a datagram lost to rekeying, on both gateways.
rekey_losses() {
  echo $(( $(counter gw1 'c["sec_tx_no_session"] + c["sec_drop_unknown_key"] + c["sec_drop_bad_tag"]') +
           $(counter gw2 'c["sec_tx_no_session"] + c["sec_drop_unknown_key"] + c["sec_drop_bad_tag"]') ))
}

check_rekey() {
  echo "== rekey every 2 s under an iperf3 flow, 60 s"
  stop_gateways
  REKEY_AFTER_S=2 write_gateway_config gw1
  REKEY_AFTER_S=2 write_gateway_config gw2
  start_gateway gw1
  start_gateway gw2
  WAIT_SECONDS=10 wait_for nsx h1 ping -c 1 -W 1 10.2.0.2 || fail "no ping with rekey_after_s 2"
  local losses0 losses1 e1 e2 slow
  losses0=$(rekey_losses)
  iperf_bg 60 5302 rekey
  wait "$IPERF_PID" || fail "iperf3 failed across rekeys"
  losses1=$(rekey_losses)
  e1=$(counter gw1 'c["sec_key_epoch"]'); e2=$(counter gw2 'c["sec_key_epoch"]')
  slow=$($PY -c "
import json
iv = json.load(open('$WORK/rekey.json'))['intervals']
print(sum(1 for i in iv if i['sum']['bytes'] == 0), round(min(i['sum']['bits_per_second'] for i in iv) / 1e9, 3), len(iv))")
  echo "key epochs gw1 $e1 gw2 $e2; datagrams lost to rekeying $losses0 -> $losses1;" \
       "iperf3 (seconds without progress, slowest second Gbit/s, seconds): $slow; goodput $(interval_gbps rekey 0 60) Gbit/s"
  for g in gw1 gw2; do
    echo "$g: $(gw_status $g | json_get '{k: v for k, v in d["peers"][0]["core"].items() if k.startswith("sec_")}')"
  done
  [ "$e1" -ge 25 ] || fail "only $e1 key epochs in 60 s"
  [ "$losses1" = "$losses0" ] || fail "datagrams lost to rekeying: $losses0 -> $losses1"
  [ "${slow%% *}" = 0 ] || fail "iperf3 stalled during rekeys"
}

# Restarts both gateways with gw1's configs rewritten by `sed` expression $1; expects no session.
check_bad_keys() {
  local label=$1 expect=$2
  echo "== $label: no session"
  stop_gateways
  write_gateway_config gw1
  write_gateway_config gw2
  "${@:3}"
  start_gateway gw1
  start_gateway gw2
  count_at_h2 7
  for _ in 1 2 3; do forge h1 legit 10.2.0.2 9999; sleep 2; done
  wait "$COUNT_PID" || true
  nsx h1 ping -c 1 -W 1 10.2.0.2 >/dev/null 2>&1 && fail "$label: ping got through"
  [ "$(cat "$WORK/count")" = 0 ] || fail "$label: a datagram reached h2"
  grep -h "no session" "$WORK/gw1.log" "$WORK/gw2.log" | head -2
  grep -q "$expect" "$WORK/gw1.log" "$WORK/gw2.log" || fail "$label: no log line saying '$expect'"
}

# Gives gw1 a fresh key pair that gw2 does not know.
wrong_public_key() { make_gateway_key gw1; write_gateway_config gw1; }
# Gives the two gateways different pre-shared keys.
wrong_psk() {
  (umask 077; "$NCGW" genkey > "$WORK/psk1"; "$NCGW" genkey > "$WORK/psk2")
  PSK_FILE="$WORK/psk1" write_gateway_config gw1
  PSK_FILE="$WORK/psk2" write_gateway_config gw2
}

build_two_gateway_topology
start_gateway gw1
start_gateway gw2
WAIT_SECONDS=10 wait_for nsx h1 ping -c 1 -W 1 10.2.0.2 || fail "no ping reply through the tunnel"
[ -z "${ONLY_REKEY:-}" ] && check_replay
[ -z "${ONLY_REKEY:-}" ] && check_flood
check_rekey
check_bad_keys "wrong public key" "not made for our public key" wrong_public_key
check_bad_keys "wrong pre-shared key" "failed inside Noise" wrong_psk
stop_gateways
echo "PASS"
