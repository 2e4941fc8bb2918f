#!/usr/bin/env bash
# The test command: installs what is missing, builds everything, and runs every test; then builds the
# unit and actor tests again with AddressSanitizer + UndefinedBehaviorSanitizer and runs them.
# CI (.ci/run) calls exactly this. Set SKIP_SANITIZERS=1 for a quicker local run.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash scripts/install-deps.sh

echo "== build (RelWithDebInfo) =="
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j2
echo "== tests: unit, actor, integration, app =="
ctest --test-dir build -j2 --output-on-failure --timeout 600

if [ "${SKIP_SANITIZERS:-0}" != 1 ]; then
  echo "== sanitizers: unit and actor tests under ASan + UBSan =="
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSTATUS_STORE_SANITIZE=address,undefined >/dev/null
  cmake --build build-asan --target unit_tests actor_tests -j2
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$PWD/tests/sanitizers/ubsan.supp \
    ctest --test-dir build-asan -j2 --output-on-failure -L '^(unit|actor)$' --timeout 600
fi
echo "== all tests passed in $(( $(date +%s) - start )) s =="
