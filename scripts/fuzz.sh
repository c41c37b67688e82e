#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-14 in build-fuzz/ and runs each for FUZZ_SECONDS
# (default 60), with its saved corpus as the seed set (new finds go to build-fuzz/corpus-NAME/;
# copy the interesting ones into tests/fuzz/<area>/corpus/). Usage: scripts/fuzz.sh [NAME...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNCGW_FUZZ=ON >/dev/null
declare -A corpus=(
  [plain_datagram]=tests/fuzz/plain/corpus
  [coding_decoder]=tests/fuzz/coding/corpus
  [tcpnc_packet]=tests/fuzz/tcpnc/corpus
  [tcpnc_header_compression]=tests/fuzz/tcpnc/hc_corpus
  [udt_packet]=tests/fuzz/udt/corpus
  [udt_tunnel]=tests/fuzz/udt/tunnel_corpus
  [crypto_handshake]=tests/fuzz/crypto/corpus_handshake
  [crypto_record]=tests/fuzz/crypto/corpus_record
  [crypto_batch]=tests/fuzz/crypto/corpus_batch
  [fudp_flow]=tests/fuzz/fudp/corpus
  [gateway_forwarder]=tests/fuzz/gateway/corpus
  [gateway_tun_offload]=tests/fuzz/gateway/offload_corpus
  [config_loader]=tests/fuzz/config/corpus
)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${!corpus[@]}")
for t in "${targets[@]}"; do
  cmake --build build-fuzz -j"${NCGW_JOBS:-2}" --target "fuzz_$t"
  mkdir -p "build-fuzz/corpus-$t"
  bin=$(find build-fuzz -name "fuzz_$t" -type f -executable | head -1)
  echo "== fuzz_$t for ${FUZZ_SECONDS:-60} s"
  "$bin" -max_total_time="${FUZZ_SECONDS:-60}" -print_final_stats=1 "build-fuzz/corpus-$t" "${corpus[$t]}"
done
