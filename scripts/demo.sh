#!/usr/bin/env bash
# The README's first command: installs what is needed, builds, and runs the demo scenario
# (h1 - gw1 - [link emulator: 10 Mbit/s, 10 ms, 2% loss] - gw2 - h2), printing iperf3 TCP goodput
# end to end without the tunnel and through the ncgw tunnel, measured in the same run.
# Run as root. Options: --transport plain|tcpnc|udt (default tcpnc); any other run-scenario option.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh --target ncgw linkem
transport=tcpnc
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --transport) transport="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
exec /usr/bin/python3 netns-scenarios/run-scenario netns-scenarios/scenarios/two-gateways.yaml \
  --transport "$transport" --ncgw build/gateway/ncgw --linkem build/netns-scenarios/linkem "${args[@]}"
