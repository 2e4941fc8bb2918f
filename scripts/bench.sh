#!/usr/bin/env bash
# Builds (Release) and runs the benchmarks side by side in one run; extra arguments go to the
# harness (--bootstrap-servers HOST:PORT for a real cluster, --updates, --keys, --replay-records,
# --memory-keys, --latency-seconds, --latency-warmup-seconds, --outage-seconds/-updates/-keys,
# --storm-updates/-keys, --rest-connectors/-tasks/-requests/-rounds, --json PATH, --only
# rest-expand|history|latency for one scenario alone).
# Prints the table of ratios; writes bench/results/latest.json, latest.tsv and the chart latest.png.
# `scripts/bench.sh --local-broker [ARGS]` runs it on a real local broker, Connect's Java store included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTATUS_STORE_TESTS=OFF >/dev/null
cmake --build build-release --target status_store_bench -j2
# The chart needs gnuplot (Debian's gnuplot-nox, PNG through libgd); only the benchmark needs it.
if ! command -v gnuplot >/dev/null; then
  sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends gnuplot-nox
fi
# --local-broker: the same run on a real one-node Kafka broker that scripts/kafka-local.sh starts (and
# always stops), with Kafka Connect's own Java store beside status-store (tests/interop's driver).
if [ "${1:-}" = --local-broker ]; then
  shift
  bash tests/interop/build-java-driver.sh build-release
  export KAFKA_LOCAL_DIR=$PWD/build-release/kafka-local
  exec bash scripts/kafka-local.sh run 1 -- bash -c \
    'exec bash scripts/bench.sh --bootstrap-servers "$STATUS_STORE_BOOTSTRAP" --java-driver build-release/interop-java/status-store-interop.jar "$@"' \
    bench "$@"
fi
mkdir -p bench/results
args=("$@")
only=
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[$i]}" = --only ] && only=${args[$((i + 1))]}; done
json=bench/results/${only:-latest}.json  # where the harness writes by default
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[$i]}" = --json ] && json=${args[$((i + 1))]}; done
./build-release/bench/status_store_bench "$@"
# p99 put -> latest durable against the rate, both sides: a full run and --only latency write its data.
if [ -z "$only" ] || [ "$only" = latency ]; then
  gnuplot -e "data='${json%.json}-latency.tsv'; out='${json%.json}-latency.png'; title='p99 put -> latest durable, $(date -u +%F) on $(nproc) CPUs'" \
    bench/latency.gnuplot
  echo "latency plot: ${json%.json}-latency.png"
fi
# --only runs one scenario, which has no row in the chart of the full run.
[ -z "$only" ] || exit 0
chart=${json%.json}.png
gnuplot -e "data='${json%.json}.tsv'; out='$chart'; title='status-store benchmark scores, $(date -u +%F) on $(nproc) CPUs'" \
  bench/ratios.gnuplot
echo "chart: $chart"
