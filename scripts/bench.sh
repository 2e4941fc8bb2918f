#!/usr/bin/env bash
# Builds (Release) and runs the benchmarks side by side in one run; extra arguments go to the
# harness (--bootstrap-servers HOST:PORT for a real cluster, --updates, --keys, --replay-records,
# --memory-keys, --json PATH). Prints the table of ratios; writes bench/results/latest.json.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTATUS_STORE_TESTS=OFF >/dev/null
cmake --build build-release --target status_store_bench -j2
mkdir -p bench/results
exec ./build-release/bench/status_store_bench "$@"
