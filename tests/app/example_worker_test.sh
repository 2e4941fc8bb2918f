#!/usr/bin/env bash
# Installs status-store into a scratch prefix, builds app/example_worker against it with
# find_package(status_store), and runs it: proves the install rules and the exported package work
# for an embedder, that the store runs inside someone else's actor system, and that a metrics reporter
# registered by the worker receives the store's metrics at its interval and once more at stop. First,
# the public include tree: every installed header compiles alone with only the prefix (and the
# system's CAF and spdlog) on the include path, and none of them includes librdkafka.
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
# The libraries an embedder links, and only those: the app's (REST listener, routing, formats) are not installed.
libs=$(cd "$tmp/prefix" && find . -name '*.a' -printf '%f\n' | sort | tr '\n' ' ')
[ "$libs" = "libstatus_store.a libstatus_store_actors.a libstatus_store_core.a " ] ||
  { echo "installed libraries: $libs (want the facade, the actors and the core)" >&2; exit 1; }
# grep without -q reads to the end: an early exit would SIGPIPE nm and, under pipefail, hide the match.
if nm -C "$tmp"/prefix/lib*/libstatus_store*.a 2>/dev/null | grep ' T status_store::route_http_request' >/dev/null; then
  echo "an installed library defines the REST routing" >&2
  exit 1
fi
cmake -S "$src/app/example_worker" -B "$tmp/build" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/build" -j2
out=$("$tmp/build/example_worker")
echo "$out"
# The final report: the KIP's group, the store's tags, every metric, the 4 acknowledged updates.
grep -qE '^metrics reporter: [1-9][0-9]* periodic report\(s\) every 100 ms, then the final one: group status-backing-store-metrics, tags client-id=example-statuses topic=example-status, [0-9]+ metrics$' <<<"$out"
grep -qx '  status-update-success-total 4' <<<"$out"
grep -qx '  status-update-failure-total 0' <<<"$out"
grep -qx '  status-update-retry-total 0' <<<"$out"
echo "example worker test: passed"
