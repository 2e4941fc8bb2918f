#!/usr/bin/env bash
# Installs status-store into a scratch prefix, builds app/example_worker against it with
# find_package(status_store), and runs it: proves the install rules and the exported package work
# for an embedder, and that the store runs inside someone else's actor system.
# Usage: example_worker_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/app/example_worker" -B "$tmp/build" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/build" -j2
"$tmp/build/example_worker"
