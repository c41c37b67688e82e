# Shared helpers for netns tests: unique namespace names, veth links, cleanup on any exit.
# Source this file; set NS_PREFIX first (unique per run, e.g. "t$$").

NS_CREATED=()
PIDS_STARTED=()

# Creates a namespace named $NS_PREFIX-$1 with loopback up; echoes its name.
ns_add() {
  local ns="$NS_PREFIX-$1"
  ip netns add "$ns"
  ip -n "$ns" link set lo up
  NS_CREATED+=("$ns")
}

# Runs a command inside namespace $1 (short name).
nsx() { local ns="$NS_PREFIX-$1"; shift; ip netns exec "$ns" "$@"; }

# Joins namespaces $1 and $3 by a veth pair named $2 (in $1) and $4 (in $3), with addresses $5 and $6.
veth_link() {
  local a="$NS_PREFIX-$1" ifa="$2" b="$NS_PREFIX-$3" ifb="$4"
  ip link add "$ifa" netns "$a" type veth peer name "$ifb" netns "$b"
  ip -n "$a" addr add "$5" dev "$ifa"
  ip -n "$b" addr add "$6" dev "$ifb"
  ip -n "$a" link set "$ifa" up
  ip -n "$b" link set "$ifb" up
}

# Enables IPv4 forwarding and clamps TCP MSS to the route MTU in a gateway namespace.
gateway_sysctls() {
  nsx "$1" sysctl -qw net.ipv4.ip_forward=1
  nsx "$1" nft -f - <<'NFT'
table inet ncgw_mss {
  chain forward {
    type filter hook forward priority mangle; policy accept;
    tcp flags syn tcp option maxseg size set rt mtu
  }
}
NFT
}

# Turns off the offloads that break frames forwarded through linkem's packet sockets (traps.md):
# tx checksum, TSO, GSO and GRO on interface $2 of namespace $1.
offloads_off() { nsx "$1" ethtool -K "$2" tx off tso off gso off gro off >/dev/null 2>&1 || true; }

# Starts a command in the background inside namespace $1; remembers its pid in LAST_PID.
ns_bg() {
  local ns="$NS_PREFIX-$1"; shift
  ip netns exec "$ns" "$@" &
  LAST_PID=$!
  PIDS_STARTED+=("$LAST_PID")
}

# Waits until `$@` succeeds, at most $WAIT_SECONDS (default 10) seconds.
wait_for() {
  local deadline=$(( $(date +%s) + ${WAIT_SECONDS:-10} ))
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -ge "$deadline" ] && return 1
    sleep 0.1
  done
}

# Kills what we started and every process left in our namespaces, then deletes the namespaces;
# installed as the EXIT trap. Never fails (a trap that fails would change the test's status).
ns_cleanup() {
  set +e
  local pid ns
  for pid in "${PIDS_STARTED[@]}"; do kill "$pid" 2>/dev/null; done
  for ns in "${NS_CREATED[@]}"; do ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null; done
  sleep 0.3
  for ns in "${NS_CREATED[@]}"; do ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null; done
  for ns in "${NS_CREATED[@]}"; do ip netns del "$ns" 2>/dev/null; done
  return 0
}

# Prints a failure message and exits non-zero (the trap cleans up).
fail() { echo "FAIL: $*" >&2; exit 1; }
