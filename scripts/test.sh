#!/usr/bin/env bash
# The README's second command (and what CI runs): installs what is needed, builds, and runs every
# test: labels unit, sim, interop and netns in a Release build, then unit and sim again under
# AddressSanitizer + UndefinedBehaviorSanitizer. Run as root (netns tests need it).
# NCGW_SKIP_ASAN=1 skips the sanitizer pass (for a quick local run).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash scripts/install-deps.sh

echo "== Release build and all tests (unit, sim, interop, netns)"
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j2 --timeout 600

if [ "${NCGW_SKIP_ASAN:-0}" != 1 ]; then
  echo "== ASan+UBSan build: unit and sim tests"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNCGW_SANITIZE=ON >/dev/null
  cmake --build build-asan -j"${NCGW_JOBS:-2}"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan -L 'unit|sim' --output-on-failure -j2 --timeout 900
fi
echo "== all tests passed in $(( $(date +%s) - start )) s"
