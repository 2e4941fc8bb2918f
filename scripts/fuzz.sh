#!/usr/bin/env bash
# Fuzzes the record codec, the worker configuration parser and the HTTP request routing with
# libFuzzer (clang 14 from Debian), built with AddressSanitizer + UndefinedBehaviorSanitizer in
# build-fuzz/.
#
#   scripts/fuzz.sh [SECONDS]     build, then SECONDS per target, default 60
#   scripts/fuzz.sh build         only build the targets (scripts/test.sh builds them in the background)
#   scripts/fuzz.sh run SECONDS   only run them (CI: 20 s per target, after `build`)
#
# The targets run side by side (three sharing two cores), each starting from its seed corpus in
# tests/fuzz/corpus/<target>/; inputs the fuzzer finds are kept in build-fuzz/corpus/<target>/, so a
# later run goes on from there. Prints the executions per target and fails on any crash, sanitizer
# report, leak, timeout or property violation; the input that did it is saved as
# build-fuzz/artifacts/<target>-crash-*: turn it into a test in tests/unit/fuzz_regression_test.cpp.
# Reproduce one with: build-fuzz/tests/fuzz/fuzz_<target> build-fuzz/artifacts/<file>
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { echo "usage: scripts/fuzz.sh [SECONDS] | build | run SECONDS   (seconds per target)" >&2; exit 2; }
mode=all
case "${1:-}" in
  build) mode=build; shift; [ $# = 0 ] || usage ;;
  run) mode=run; shift; [ $# = 1 ] || usage ;;
esac
seconds=${1:-60}
case "$seconds" in '' | *[!0-9]*) usage ;; esac
targets=(record_codec properties http_routes)

if [ "$mode" != run ]; then
  bash scripts/install-deps.sh        # configuring the project needs its packages
  bash scripts/install-fuzz-deps.sh   # clang 14 and libFuzzer
  echo "== fuzz: build (clang 14, libFuzzer + ASan + UBSan) =="
  # -O1 with line tables (-g1: reports still name files and lines), and no NDEBUG: assertions stay on while fuzzing.
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DSTATUS_STORE_FUZZ=ON \
    -DSTATUS_STORE_SANITIZE=address,undefined >/dev/null
  cmake --build build-fuzz -j2 --target "${targets[@]/#/fuzz_}"
fi
[ "$mode" != build ] || exit 0
for target in "${targets[@]}"; do
  [ -x "build-fuzz/tests/fuzz/fuzz_$target" ] || { echo "fuzz: build-fuzz/tests/fuzz/fuzz_$target is not built (scripts/fuzz.sh build)" >&2; exit 1; }
done

echo "== fuzz: ${seconds} s per target =="
mkdir -p build-fuzz/artifacts
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$PWD/tests/sanitizers/ubsan.supp
pids=()
for target in "${targets[@]}"; do
  mkdir -p "build-fuzz/corpus/$target"
  build-fuzz/tests/fuzz/fuzz_$target "build-fuzz/corpus/$target" "tests/fuzz/corpus/$target" \
    -dict="tests/fuzz/$target.dict" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=4096 -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$target-" \
    >"build-fuzz/$target.log" 2>&1 &
  pids+=($!)
done

failed=0
for i in "${!targets[@]}"; do
  target=${targets[$i]}
  status=0
  wait "${pids[$i]}" || status=$?
  log=build-fuzz/$target.log
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  corpus=$(find "build-fuzz/corpus/$target" -type f | wc -l)
  if [ "$status" -eq 0 ]; then
    printf 'fuzz %-13s %10s executions in %s s, 0 crashes (corpus now %s inputs)\n' "$target" "${runs:-?}" \
      "$seconds" "$corpus"
  else
    failed=1
    printf 'fuzz %-13s FAILED (exit %s) after %s executions; the log:\n' "$target" "$status" "${runs:-?}"
    tail -n 60 "$log"
    ls -1 build-fuzz/artifacts/"$target"-* 2>/dev/null | sed 's/^/  input saved as /' || true
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz: a target failed (logs in build-fuzz/*.log)" >&2
  exit 1
fi
