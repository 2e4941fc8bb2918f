#!/usr/bin/env bash
# The test command: installs what is missing (and builds the default librdkafka, once), checks the
# formatting (scripts/format.sh --check) and the house rules (scripts/check-house.sh), builds everything, and runs
# every test; then runs the system tests on real Apache Kafka brokers (scripts/kafka-local.sh: one node, then three)
# and, on the first one, the interop tests with Kafka Connect's own Java status store; then the unit, actor, sim and
# integration tests under AddressSanitizer + UndefinedBehaviorSanitizer against Debian 12's librdkafka 2.0.2 (the
# oldest supported version); then the threaded unit tests and the integration tests under ThreadSanitizer; then
# fuzzes the record codec, the configuration parser and the HTTP routing for 20 s each (scripts/fuzz.sh).
# The sanitizer and fuzz builds compile in the background (scripts/ci-background-builds.sh, nice 19) while the
# main and system tests run, which mostly wait. CI (.ci/run) calls exactly this.
# Every step's wall time is printed at the end (also when one fails): docs/testing.md#how-long-ci-takes.
# SKIP_SYSTEM=1, SKIP_SANITIZERS=1 (ASan and TSan), SKIP_TSAN=1 and SKIP_FUZZ=1 make a quicker local run.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

# ---- step timing: `timed NAME COMMAND...` runs the command and keeps its wall and CPU time for the summary --
steps=()
cpu_file=$(mktemp)
children_cpu() {  # sets $cpu to the CPU seconds used so far by finished children: bash's `times`, which
  times >"$cpu_file"  # must run in this shell (in a subshell it counts that one's children only)
  cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= NF; ++i) { split($i, ms, "m"); t += ms[1] * 60 + ms[2] }
    printf "%d", t }' "$cpu_file")
}
timed() {
  local name=$1 t0 c0 rc=0
  shift
  t0=$(date +%s)
  children_cpu
  c0=$cpu
  "$@" || rc=$?
  children_cpu
  steps+=("$(printf '%6d s %7d cpu-s  %s%s' $(( $(date +%s) - t0 )) $(( cpu - c0 )) "$name" \
    "$([ $rc = 0 ] || echo " (FAILED, exit $rc)")")")
  return $rc
}
brokers_up=0
background_pid=
background_steps=$(mktemp)
summary() {
  local rc=$?
  [ "$brokers_up" = 1 ] && bash scripts/kafka-local.sh down  # whatever happens, no broker outlives this script
  if [ -n "$background_pid" ] && kill -0 "$background_pid" 2>/dev/null; then
    kill -- -"$background_pid" 2>/dev/null || true  # its own process group (set -m): the builds it started
  fi
  echo "== steps (wall time, CPU time of the step's processes) =="
  printf '%s\n' "${steps[@]}"
  cat "$background_steps"
  printf '%6d s  total, exit %d\n' $(( $(date +%s) - start )) "$rc"
  rm -f "$cpu_file" "$background_steps" "$background_steps.cpu"
}
trap summary EXIT

# CI's builds keep line tables only (-g1): sanitizer reports and crashes still name files and lines, and
# the compile is about a quarter faster than with full debug info. The main build is -O1: a third less
# compile time than -O2 for the tests' purposes; benchmarks build their own -O2 (scripts/bench.sh).
line_tables=-g1

timed "install-deps" bash scripts/install-deps.sh
[ "${SKIP_FUZZ:-0}" = 1 ] || timed "install-fuzz-deps" bash scripts/install-fuzz-deps.sh
# The browser label's headless Chromium, ChromeDriver and Selenium (docs/testing.md#the-status-page-in-a-real-browser):
# installed here, and required, so on CI a missing browser fails the browser test instead of skipping it.
timed "install-browser-deps" bash scripts/install-browser-deps.sh >/dev/null
export STATUS_STORE_REQUIRE_BROWSER=1

echo "== format: every C++ file as .clang-format says (scripts/format.sh --check) =="
timed "format check" bash scripts/format.sh --check
echo "== house rules: function and file sizes, README length, duplicates (scripts/check-house.sh) =="
timed "house rules" bash scripts/check-house.sh

echo "== build (RelWithDebInfo, -O1 $line_tables) =="
# No benchmark harness: no test runs it, and scripts/bench.sh builds its own (-O2, build-release).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTATUS_STORE_BENCH=OFF \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 $line_tables -DNDEBUG" >/dev/null
timed "build" cmake --build build -j2

# From here the sanitizer and fuzz builds compile beside the tests, at the lowest priority, in a process
# group of their own (job control), so the EXIT trap can stop them with everything they started.
mkdir -p build
set -m
SANITIZER_SIM_SEEDS=${SANITIZER_SIM_SEEDS:-200} nice -n 19 bash scripts/ci-background-builds.sh "$background_steps" \
  >build/background-builds.log 2>&1 &
background_pid=$!
set +m
echo "== sanitizer and fuzz builds started in the background (pid $background_pid, log build/background-builds.log) =="

echo "== tests: every label but system and interop (those need the brokers of the next phase) =="
timed "tests: every label but system and interop" \
  ctest --test-dir build -j2 --output-on-failure --timeout 600 -LE '^(system|interop)'

if [ "${SKIP_SYSTEM:-0}" != 1 ]; then
  echo "== system: status-store on real Apache Kafka brokers (scripts/kafka-local.sh) =="
  system_start=$(date +%s)
  brokers_up=1
  timed "kafka jars" bash scripts/kafka-local.sh fetch >/dev/null   # the first run downloads them and logs the time
  # The interop tests' Java driver (Kafka Connect's KafkaStatusBackingStore, connect-runtime of the
  # broker's version), built with Maven into build/interop-java; the first build logs its download.
  timed "interop java driver" bash tests/interop/build-java-driver.sh build
  # Each `run` starts a fresh cluster, exports STATUS_STORE_BOOTSTRAP etc. and always stops it.
  timed "system + interop, one node" bash scripts/kafka-local.sh run 1 -- \
    ctest --test-dir build -L '^(system|interop)$' --output-on-failure --no-tests=error --timeout 300
  timed "system-cluster, three nodes" bash scripts/kafka-local.sh run 3 -- \
    ctest --test-dir build -L '^system-cluster$' --output-on-failure --no-tests=error --timeout 300
  brokers_up=0
  echo "== system tests passed in $(( $(date +%s) - system_start )) s =="
else
  echo "== system: SKIPPED (SKIP_SYSTEM=1) =="
fi

echo "== waiting for the background builds (build/background-builds.log) =="
background_rc=0
timed "waiting for the background builds" wait "$background_pid" || background_rc=$?
background_pid=
if [ "$background_rc" != 0 ]; then
  echo "the background builds failed (exit $background_rc); the end of build/background-builds.log:" >&2
  tail -n 80 build/background-builds.log >&2
  exit 1
fi

if [ "${SKIP_SANITIZERS:-0}" != 1 ]; then
  # The simulation runs SANITIZER_SIM_SEEDS seeds in each of its two modes here (the main phase runs 2,000):
  # the sanitizer builds are 10-20x slower, and what they look for (memory errors) shows in any seed.
  # Configured with Debian 12's librdkafka 2.0.2, the oldest supported version: the integration tests run the
  # whole store on its mock cluster, and LoadedLibrdkafka checks that 2.0.2 is the library actually loaded.
  echo "== sanitizers: unit, actor, sim and integration tests under ASan + UBSan, on librdkafka 2.0.2 =="
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$PWD/tests/sanitizers/ubsan.supp \
    timed "ASan + UBSan (librdkafka 2.0.2): tests" ctest --test-dir build-asan -j2 --output-on-failure \
    -L '^(unit|actor|sim|integration)$' --no-tests=error --timeout 900
fi

if [ "${SKIP_SANITIZERS:-0}" != 1 ] && [ "${SKIP_TSAN:-0}" != 1 ]; then
  # Only the tests with more than one thread: unit_thread_tests (the ingest table's callers, label `threads`)
  # and the integration tests (CAF's scheduler, librdkafka's threads, the facade). The other unit tests, the
  # TLS handshakes and the actor and sim tests (every actor in the test's one thread, on CAF's test
  # coordinator) run in one thread, where ThreadSanitizer has nothing to find, and are not built there.
  # The first report ends its test with exit code 66; the suppressions cover third-party code only
  # (tests/sanitizers/tsan.supp, each explained there).
  echo "== sanitizers: the threaded unit tests and the integration tests under ThreadSanitizer =="
  TSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/tsan.supp:halt_on_error=1:second_deadlock_stack=1" \
    timed "TSan: tests" ctest --test-dir build-tsan -j2 --output-on-failure -L '^(threads|integration)$' \
    --no-tests=error --timeout 900
fi

if [ "${SKIP_FUZZ:-0}" != 1 ]; then
  echo "== fuzz: record codec, worker configuration and HTTP routing, ${FUZZ_SECONDS:-20} s per target (scripts/fuzz.sh) =="
  timed "fuzz: run" bash scripts/fuzz.sh run "${FUZZ_SECONDS:-20}"
fi
echo "== all tests passed in $(( $(date +%s) - start )) s =="
