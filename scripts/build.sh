#!/usr/bin/env bash
# Configures and builds ncgw in build/ (Release). Extra arguments are passed to `cmake --build`
# (e.g. --target ncgw linkem).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"${NCGW_JOBS:-2}" "$@"
