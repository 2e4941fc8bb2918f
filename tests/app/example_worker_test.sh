#!/usr/bin/env bash
# Installs status-store into a scratch prefix, builds app/example_worker against it with
# find_package(status_store), and runs it: proves the install rules and the exported package work
# for an embedder, and that the store runs inside someone else's actor system. First, the public
# include tree: every installed header compiles alone with only the prefix (and the system's CAF and
# spdlog) on the include path, and none of them includes librdkafka.
# Usage: example_worker_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null

include="$tmp/prefix/include"
mapfile -t headers < <(cd "$include" && find status_store -type f | sort)
[ ${#headers[@]} -gt 0 ] || { echo "no header installed under $include/status_store" >&2; exit 1; }
[ -f "$include/status_store/store.hpp" ] || { echo "<status_store/store.hpp> is not installed" >&2; exit 1; }
if grep -l -e 'rdkafka' "${headers[@]/#/$include/}"; then
  echo "installed headers above mention librdkafka: it must not be reachable from the public headers" >&2
  exit 1
fi
for h in "${headers[@]}"; do
  echo "#include <$h>" | "${CXX:-c++}" -std=c++20 -fsyntax-only -I"$include" -I"$include/status_store" -x c++ - ||
    { echo "installed header <$h> does not compile alone" >&2; exit 1; }
done
echo "public headers: ${#headers[@]} installed, each compiles alone, none includes librdkafka"
cmake -S "$src/app/example_worker" -B "$tmp/build" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/build" -j2
"$tmp/build/example_worker"
