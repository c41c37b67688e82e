#!/usr/bin/env bash
# Installs every Debian 12 package that ncgw's build, tests, benchmarks and scenarios need.
# Idempotent and non-interactive; run as root.
set -euo pipefail

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build pkg-config git
  clang-14 libclang-rt-14-dev lld-14
  # libraries
  libboost-dev libisal-dev libtins-dev libyaml-cpp-dev libspdlog-dev libfmt-dev libcli11-dev
  nlohmann-json3-dev libmnl-dev libsodium-dev libcap-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev libudt-dev
  # network scenarios
  iproute2 iputils-ping iperf3 nftables ethtool openvpn procps kmod psmisc time curl
  python3 python3-yaml python3-matplotlib
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: must run as root (missing: ${missing[*]})" >&2
  exit 1
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
