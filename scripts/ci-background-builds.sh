#!/usr/bin/env bash
# The builds scripts/test.sh overlaps with its main tests and system tests, which leave the cores mostly
# idle (they wait on brokers, sockets and timers): the ASan + UBSan build (against Debian 12's librdkafka
# 2.0.2, the oldest supported), the TSan build and the fuzz targets. test.sh starts this at `nice -n 19`
# so the tests keep the CPU they ask for, and runs what it built once both are done
# (docs/testing.md#how-long-ci-takes).
#
#   scripts/ci-background-builds.sh STEPS_FILE    each build's wall and CPU time is appended to STEPS_FILE
set -euo pipefail
cd "$(dirname "$0")/.."
steps_file=$1
line_tables=-g1
SANITIZER_SIM_SEEDS=${SANITIZER_SIM_SEEDS:-200}

step() {  # step NAME COMMAND...: runs it and appends its wall and CPU (user + sys) seconds to STEPS_FILE
  local name=$1 t0 rc=0
  shift
  t0=$(date +%s)
  /usr/bin/time -f '%U %S' -o "$steps_file.cpu" "$@" || rc=$?
  local cpu
  cpu=$(awk '{ printf "%d", $1 + $2 }' "$steps_file.cpu" 2>/dev/null || echo 0)
  printf '%6d s %7d cpu-s  %s (in the background)%s\n' $(( $(date +%s) - t0 )) "$cpu" "$name" \
    "$([ $rc = 0 ] || echo " (FAILED, exit $rc)")" >>"$steps_file"
  return $rc
}

if [ "${SKIP_SANITIZERS:-0}" != 1 ]; then
  echo "== ASan + UBSan build, librdkafka 2.0.2 (Debian 12's, the oldest supported) =="
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="$line_tables" \
    -DSTATUS_STORE_SANITIZE=address,undefined -DSTATUS_STORE_SIM_SEEDS="$SANITIZER_SIM_SEEDS" \
    -DSTATUS_STORE_LIBRDKAFKA_PREFIX=system >/dev/null
  grep -q '^RDKAFKA_VERSION:INTERNAL=2\.0\.2$' build-asan/CMakeCache.txt ||
    { echo "build-asan is not configured with librdkafka 2.0.2:" >&2; grep '^RDKAFKA_VERSION' build-asan/CMakeCache.txt >&2; exit 1; }
  step "ASan + UBSan (librdkafka 2.0.2): build" \
    cmake --build build-asan -j2 --target unit_tests unit_thread_tests tls_tests actor_tests integration_tests
fi
if [ "${SKIP_SANITIZERS:-0}" != 1 ] && [ "${SKIP_TSAN:-0}" != 1 ]; then
  echo "== TSan build: the tests with threads of their own =="
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="$line_tables" \
    -DSTATUS_STORE_SANITIZE=thread >/dev/null
  step "TSan: build" cmake --build build-tsan -j2 --target unit_thread_tests integration_tests
fi
if [ "${SKIP_FUZZ:-0}" != 1 ]; then
  step "fuzz: build" bash scripts/fuzz.sh build
fi
