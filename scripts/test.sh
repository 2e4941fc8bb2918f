#!/usr/bin/env bash
# The test command: installs what is missing, builds everything, and runs every test; then runs the
# system tests on real Apache Kafka brokers (scripts/kafka-local.sh: one node, then three); then
# builds the unit and actor tests again with AddressSanitizer + UndefinedBehaviorSanitizer and runs
# them. CI (.ci/run) calls exactly this. SKIP_SYSTEM=1 and SKIP_SANITIZERS=1 make a quicker local run.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash scripts/install-deps.sh

echo "== build (RelWithDebInfo) =="
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j2
echo "== tests: every label but system (those need the brokers of the next phase) =="
ctest --test-dir build -j2 --output-on-failure --timeout 600 -LE '^system'

if [ "${SKIP_SYSTEM:-0}" != 1 ]; then
  echo "== system: status-store on real Apache Kafka brokers (scripts/kafka-local.sh) =="
  system_start=$(date +%s)
  trap 'bash scripts/kafka-local.sh down' EXIT  # whatever happens, no broker outlives this script
  bash scripts/kafka-local.sh fetch >/dev/null   # the first run downloads the jars and logs the time
  # Each `run` starts a fresh cluster, exports STATUS_STORE_BOOTSTRAP etc. and always stops it.
  bash scripts/kafka-local.sh run 1 -- \
    ctest --test-dir build -L '^system$' --output-on-failure --no-tests=error --timeout 300
  bash scripts/kafka-local.sh run 3 -- \
    ctest --test-dir build -L '^system-cluster$' --output-on-failure --no-tests=error --timeout 300
  trap - EXIT
  echo "== system tests passed in $(( $(date +%s) - system_start )) s =="
else
  echo "== system: SKIPPED (SKIP_SYSTEM=1) =="
fi

if [ "${SKIP_SANITIZERS:-0}" != 1 ]; then
  echo "== sanitizers: unit and actor tests under ASan + UBSan =="
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSTATUS_STORE_SANITIZE=address,undefined >/dev/null
  cmake --build build-asan --target unit_tests actor_tests -j2
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$PWD/tests/sanitizers/ubsan.supp \
    ctest --test-dir build-asan -j2 --output-on-failure -L '^(unit|actor)$' --timeout 600
fi
echo "== all tests passed in $(( $(date +%s) - start )) s =="
