#!/usr/bin/env bash
# netns test: a hub gateway with two peers on two workers (gateway.workers).
#   h1 10.1.0.2 - gw1 =192.168.12.0/24= gw2 - h2 10.2.0.2
#                    =192.168.13.0/24= gw3 - h3 10.3.0.2
# gw1 has peers gw2 and gw3, both TCP/NC on the same UDP port, authenticated and encrypted, and
# `workers: auto` (on a machine with two or more cores: two workers, one peer each). Checks:
#  1. gw1's status: 2 workers, a TUN with 2 queues, a connected socket per peer;
#  2. four downloads from h2 and four from h3 to h1 at once, each checked by sha256;
#  3. a download from h3 to h2 through the hub: gw2's worker delivers it for gw3's, so every
#     packet crosses between workers (forwarded_packets and handed_over);
#  4. SIGTERM: exit status 0 within 5 s, final counters logged;
#  5. the same hub with `workers: 1`: status says 1 worker and 1 queue, a download passes.
# Usage: workers.sh /path/to/ncgw
set -euo pipefail
NCGW=$(realpath "$1")
HERE=$(cd "$(dirname "$0")/.." && pwd)
NS_PREFIX="wk$$"
WORK=$(mktemp -d)
GW_LOG_FILES=1
source "$HERE/lib/netns.sh"
source "$HERE/lib/ncgw.sh"
source "$HERE/lib/hub.sh"
trap 'rc=$?; [ $rc = 0 ] || tail -n 20 "$WORK"/gw*.log >&2; ns_cleanup; rm -rf "$WORK"; exit $rc' EXIT

[ "$(nproc)" -ge 2 ] || { echo "SKIP: one core: workers auto would be 1"; exit 0; }

build_hub_topology

# Writes gateway $1's config: TUN address $2, workers $3, then "peer endpoint prefix..." entries
# (prefixes comma-separated).
write_config() {
  local me="$1" tun="$2" workers="$3"; shift 3
  { echo "gateway: {name: $NS_PREFIX-$me, private_key_file: $WORK/$me.key, workers: $workers}"
    echo "tun: {name: wktun0, addresses: [$tun]}"
    echo "peers:"
    local args=("$@") i p
    for ((i = 0; i < ${#args[@]}; i += 3)); do
      echo "  - {name: ${args[i]}, endpoint: ${args[i+1]}, transport: tcpnc, public_key: $(cat "$WORK/${args[i]}.pub")}"
    done
    echo "routes:"
    for ((i = 0; i < ${#args[@]}; i += 3)); do
      for p in ${args[i+2]//,/ }; do echo "  - {prefix: $p, via: ${args[i]}}"; done
    done
    echo "logging: {level: info}"
  } > "$WORK/$me.yaml"
}
write_config gw1 10.99.0.1/24 auto gw2 192.168.12.2 10.2.0.0/24 gw3 192.168.13.2 10.3.0.0/24
write_config gw2 10.99.0.2/24 auto gw1 192.168.12.1 10.1.0.0/24,10.3.0.0/24
write_config gw3 10.99.0.3/24 auto gw1 192.168.13.1 10.1.0.0/24,10.2.0.0/24
for g in gw1 gw2 gw3; do start_gateway $g; done

for h in h2 h3; do
  mkdir -p "$WORK/www-$h"
  head -c $((8 * 1024 * 1024)) /dev/urandom > "$WORK/www-$h/file.bin"
done
ns_bg h2 /usr/bin/python3 -m http.server 8080 --bind 10.2.0.2 --directory "$WORK/www-h2" > /dev/null 2>&1
ns_bg h3 /usr/bin/python3 -m http.server 8080 --bind 10.3.0.2 --directory "$WORK/www-h3" > /dev/null 2>&1
WAIT_SECONDS=20 wait_for nsx h1 curl -s -o /dev/null --max-time 2 http://10.2.0.2:8080/ || fail "no tunnel h1 -> h2"
WAIT_SECONDS=20 wait_for nsx h1 curl -s -o /dev/null --max-time 2 http://10.3.0.2:8080/ || fail "no tunnel h1 -> h3"

# fetch FROM_HOST FROM_ADDR TO_HOST TAG: curl on TO_HOST downloads FROM_HOST's file; checks sha256.
fetch() {
  local from=$1 addr=$2 to=$3 tag=$4 want got
  nsx "$to" curl -sS --max-time 60 -o "$WORK/got-$tag.bin" "http://$addr:8080/file.bin" ||
    { echo "download $tag failed" > "$WORK/fail-$tag"; return 0; }
  want=$(sha256sum < "$WORK/www-$from/file.bin" | cut -d' ' -f1)
  got=$(sha256sum < "$WORK/got-$tag.bin" | cut -d' ' -f1)
  [ "$want" = "$got" ] || echo "download $tag: sha256 $got, want $want" > "$WORK/fail-$tag"
}

echo "== 1. gw1 status"
s=$(gw_status gw1)
echo "$s" | json_get '"workers %d, tun queues %d, ports %s" % (d["workers"], d["tun"]["queues"], [p["local"] for p in d["ports"]])'
[ "$(echo "$s" | json_get 'd["workers"]')" = 2 ] || fail "gw1 runs $(echo "$s" | json_get 'd["workers"]') workers, want 2"
[ "$(echo "$s" | json_get 'd["tun"]["queues"]')" = 2 ] || fail "gw1's TUN has not 2 queues"
[ "$(echo "$s" | json_get 'sum(" to " in p["local"] for p in d["ports"])')" = 2 ] || fail "gw1 has not one connected socket per peer"
[ "$(gw_status gw2 | json_get 'd["workers"]')" = 1 ] || fail "gw2 (one peer) does not run 1 worker"

echo "== 2. four downloads each from h2 and h3 to h1 at once"
pids=()
for i in 1 2 3 4; do
  fetch h2 10.2.0.2 h1 "h2-$i" & pids+=($!)
  fetch h3 10.3.0.2 h1 "h3-$i" & pids+=($!)
done
wait "${pids[@]}"
! ls "$WORK"/fail-* > /dev/null 2>&1 || fail "$(cat "$WORK"/fail-*)"
echo "   8 downloads of 8 MiB, sha256 equal; gw1 handed_over $(gw_status gw1 | json_get 'd["counters"]["handed_over"]')"

echo "== 3. h3 -> h2 through the hub"
before=$(gw_status gw1 | json_get 'd["counters"]["handed_over"]')
fetch h3 10.3.0.2 h2 "h3-h2"
! ls "$WORK"/fail-* > /dev/null 2>&1 || fail "$(cat "$WORK"/fail-*)"
s=$(gw_status gw1)
echo "$s" | json_get '"gw1: forwarded_packets %d, handed_over %d, drop_handoff %d" % (d["counters"]["forwarded_packets"], d["counters"]["handed_over"], d["counters"]["drop_handoff"])'
after=$(echo "$s" | json_get 'd["counters"]["handed_over"]')
fwd=$(echo "$s" | json_get 'd["counters"]["forwarded_packets"]')
[ "$fwd" -gt 5000 ] || fail "gw1 forwarded $fwd packets, want the download's (> 5000)"
[ $((after - before)) -ge 5000 ] || fail "gw1 handed over $((after - before)) packets during the forwarded download"

echo "== 4. SIGTERM"
kill -TERM "$GW_PID_gw1"
rc=0
timeout 5 tail --pid="$GW_PID_gw1" -f /dev/null || fail "gw1 did not exit within 5 s of SIGTERM"
wait "$GW_PID_gw1" || rc=$?
[ $rc = 0 ] || fail "gw1 exited with status $rc"
grep -q "final counters:.*\"workers\":2" "$WORK/gw1.log" || fail "gw1 did not log its final counters"
echo "   exit 0; final counters logged"

echo "== 5. the same hub with workers: 1"
write_config gw1 10.99.0.1/24 1 gw2 192.168.12.2 10.2.0.0/24 gw3 192.168.13.2 10.3.0.0/24
start_gateway gw1
s=$(gw_status gw1)
[ "$(echo "$s" | json_get 'd["workers"], d["tun"]["queues"]')" = "1 1" ] || fail "workers: 1 gives $(echo "$s" | json_get 'd["workers"], d["tun"]["queues"]')"
WAIT_SECONDS=20 wait_for nsx h1 curl -s -o /dev/null --max-time 2 http://10.3.0.2:8080/ || fail "no tunnel h1 -> h3 with workers: 1"
fetch h3 10.3.0.2 h1 "one-worker"
! ls "$WORK"/fail-* > /dev/null 2>&1 || fail "$(cat "$WORK"/fail-*)"
echo "   1 worker, 1 queue, download intact"
echo "PASS"
