# Shared helpers for netns tests that run ncgw gateways. Source after lib/netns.sh; needs NCGW (the
# binary), WORK (temp dir, gateway $1's config in $WORK/$1.yaml) and NS_PREFIX.

# Starts gateway $1 in namespace $1 and waits for its control socket (GW_START_SECONDS, default
# 10); sets GW_PID_$1. Its log goes to $WORK/$1.log when GW_LOG_FILES=1, else to the test's output.
start_gateway() {
  if [ "${GW_LOG_FILES:-0}" = 1 ]; then
    ns_bg "$1" "$NCGW" run --config "$WORK/$1.yaml" > "$WORK/$1.log" 2>&1
  else
    ns_bg "$1" "$NCGW" run --config "$WORK/$1.yaml"
  fi
  eval "GW_PID_$1=$LAST_PID"
  WAIT_SECONDS=${GW_START_SECONDS:-10} wait_for test -S "/run/ncgw/${NS_PREFIX}-$1.sock" ||
    fail "gateway $1 did not start: $(tail -5 "$WORK/$1.log" 2>/dev/null)"
}

# Prints gateway $1's status JSON.
gw_status() { "$NCGW" status --name "${NS_PREFIX}-$1" --json; }

# Prints a python expression over `d`, the JSON document read from stdin.
json_get() { /usr/bin/python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

# Makes a key pair for gateway $1: $WORK/$1.key (mode 600) and $WORK/$1.pub (`ncgw genkey`/`pubkey`).
make_gateway_key() {
  (umask 077; "$NCGW" genkey > "$WORK/$1.key")
  "$NCGW" pubkey < "$WORK/$1.key" > "$WORK/$1.pub"
}

# The YAML lines of a secured peer entry whose gateway key is $WORK/$1.pub, indented by $2 spaces;
# with SECURITY=none, the explicit plaintext line instead.
peer_security_yaml() {
  local pad
  pad=$(printf '%*s' "$2" '')
  if [ "${SECURITY:-aead}" = none ]; then
    echo "${pad}security: none"
  else
    echo "${pad}public_key: $(cat "$WORK/$1.pub")"
    [ -n "${REKEY_AFTER_S:-}" ] && echo "${pad}rekey_after_s: $REKEY_AFTER_S"
    [ -n "${PSK_FILE:-}" ] && echo "${pad}preshared_key_file: $PSK_FILE"
    return 0
  fi
}
