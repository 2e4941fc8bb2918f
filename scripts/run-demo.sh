#!/usr/bin/env bash
# The main command: installs what is missing, builds status-store, and runs its demo on the embedded
# mock cluster (no Kafka needed). Extra arguments go to `status-store demo` (see --help).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build --target status-store -j2
exec ./build/status-store demo "$@"
