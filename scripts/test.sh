#!/usr/bin/env bash
# The test command: installs what is missing (and builds the default librdkafka, once), checks the
# formatting (scripts/format.sh --check) and the house rules (scripts/check-house.sh), builds everything, and runs every test; then runs the
# system tests on real Apache Kafka brokers (scripts/kafka-local.sh: one node, then three) and, on the first one, the interop tests with Kafka
# Connect's own Java status store; then builds the unit, actor, integration and app tests against
# Debian 12's librdkafka 2.0.2, the oldest supported version, and runs them; then
# builds the unit, actor, sim and integration tests again with AddressSanitizer +
# UndefinedBehaviorSanitizer and runs them; then the same under ThreadSanitizer; then fuzzes the record codec
# and the configuration parser for 20 s each (scripts/fuzz.sh). CI (.ci/run) calls exactly this.
# SKIP_SYSTEM=1, SKIP_OLDEST=1 (librdkafka 2.0.2), SKIP_SANITIZERS=1 (ASan and TSan), SKIP_TSAN=1 and
# SKIP_FUZZ=1 make a quicker local run.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash scripts/install-deps.sh

echo "== format: every C++ file as .clang-format says (scripts/format.sh --check) =="
bash scripts/format.sh --check
echo "== house rules: function and file sizes, README length, duplicates (scripts/check-house.sh) =="
bash scripts/check-house.sh

echo "== build (RelWithDebInfo) =="
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j2
echo "== tests: every label but system and interop (those need the brokers of the next phase) =="
ctest --test-dir build -j2 --output-on-failure --timeout 600 -LE '^(system|interop)'

if [ "${SKIP_SYSTEM:-0}" != 1 ]; then
  echo "== system: status-store on real Apache Kafka brokers (scripts/kafka-local.sh) =="
  system_start=$(date +%s)
  trap 'bash scripts/kafka-local.sh down' EXIT  # whatever happens, no broker outlives this script
  bash scripts/kafka-local.sh fetch >/dev/null   # the first run downloads the jars and logs the time
  # The interop tests' Java driver (Kafka Connect's KafkaStatusBackingStore, connect-runtime of the
  # broker's version), built with Maven into build/interop-java; the first build logs its download.
  bash tests/interop/build-java-driver.sh build
  # Each `run` starts a fresh cluster, exports STATUS_STORE_BOOTSTRAP etc. and always stops it.
  bash scripts/kafka-local.sh run 1 -- \
    ctest --test-dir build -L '^(system|interop)$' --output-on-failure --no-tests=error --timeout 300
  bash scripts/kafka-local.sh run 3 -- \
    ctest --test-dir build -L '^system-cluster$' --output-on-failure --no-tests=error --timeout 300
  trap - EXIT
  echo "== system tests passed in $(( $(date +%s) - system_start )) s =="
else
  echo "== system: SKIPPED (SKIP_SYSTEM=1) =="
fi

if [ "${SKIP_OLDEST:-0}" != 1 ]; then
  # The oldest supported librdkafka: Debian 12's 2.0.2 (its SCRAM cannot log in to Kafka >= 3.7.2; the
  # rest works). Only what these labels need is built (no system, interop, bench or fuzz targets), with
  # no optimisation or debug info (build type None: the phase is about the API, not speed).
  echo "== oldest librdkafka: unit, actor, integration and app tests against Debian 12's librdkafka 2.0.2 =="
  oldest_start=$(date +%s)
  cmake -S . -B build-rdkafka-2.0.2 -G Ninja -DCMAKE_BUILD_TYPE=None -DSTATUS_STORE_LIBRDKAFKA_PREFIX=system >/dev/null
  cmake --build build-rdkafka-2.0.2 -j2 --target unit_tests tls_tests actor_tests integration_tests status-store
  oldest_version=$(./build-rdkafka-2.0.2/status-store --version)
  [[ $oldest_version == *"librdkafka 2.0.2"* ]] || { echo "build-rdkafka-2.0.2 loads: $oldest_version" >&2; exit 1; }
  ctest --test-dir build-rdkafka-2.0.2 -j2 --output-on-failure -L '^(unit|actor|integration|app)$' --no-tests=error --timeout 600
  echo "== librdkafka 2.0.2: passed in $(( $(date +%s) - oldest_start )) s =="
fi

# The sanitizer builds run the simulation with SANITIZER_SIM_SEEDS seeds in each of its two modes (the main phase runs 2,000):
# they are 10-20x slower, and what they look for (memory and threading errors) shows in any seed.
SANITIZER_SIM_SEEDS=${SANITIZER_SIM_SEEDS:-200}

if [ "${SKIP_SANITIZERS:-0}" != 1 ]; then
  echo "== sanitizers: unit, actor, sim and integration tests under ASan + UBSan =="
  asan_start=$(date +%s)
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSTATUS_STORE_SANITIZE=address,undefined \
    -DSTATUS_STORE_SIM_SEEDS="$SANITIZER_SIM_SEEDS" >/dev/null
  cmake --build build-asan --target unit_tests tls_tests actor_tests integration_tests -j2
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$PWD/tests/sanitizers/ubsan.supp \
    ctest --test-dir build-asan -j2 --output-on-failure -L '^(unit|actor|sim|integration)$' --no-tests=error --timeout 900
  echo "== ASan + UBSan: no report, $(( $(date +%s) - asan_start )) s =="
fi

if [ "${SKIP_SANITIZERS:-0}" != 1 ] && [ "${SKIP_TSAN:-0}" != 1 ]; then
  echo "== sanitizers: unit, actor, sim and integration tests under ThreadSanitizer =="
  tsan_start=$(date +%s)
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSTATUS_STORE_SANITIZE=thread \
    -DSTATUS_STORE_SIM_SEEDS="$SANITIZER_SIM_SEEDS" >/dev/null
  cmake --build build-tsan --target unit_tests tls_tests actor_tests integration_tests -j2
  # The first report ends its test with exit code 66; the suppressions cover third-party code only
  # (tests/sanitizers/tsan.supp, each explained there).
  TSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/tsan.supp:halt_on_error=1:second_deadlock_stack=1" \
    ctest --test-dir build-tsan -j2 --output-on-failure -L '^(unit|actor|sim|integration)$' --no-tests=error --timeout 900
  echo "== ThreadSanitizer: no report, $(( $(date +%s) - tsan_start )) s =="
fi

if [ "${SKIP_FUZZ:-0}" != 1 ]; then
  echo "== fuzz: record codec and worker configuration, ${FUZZ_SECONDS:-20} s per target (scripts/fuzz.sh) =="
  fuzz_start=$(date +%s)
  bash scripts/fuzz.sh "${FUZZ_SECONDS:-20}"
  echo "== fuzz: no crash, $(( $(date +%s) - fuzz_start )) s =="
fi
echo "== all tests passed in $(( $(date +%s) - start )) s =="
