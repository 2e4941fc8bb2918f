#!/usr/bin/env bash
# Installs what status-store needs to build and test on Debian 12, from Debian's packages only.
# Idempotent: packages already present are skipped, so the README commands and CI can always call it.
# Then builds the librdkafka the default build uses (scripts/build-librdkafka.sh: a no-op once cached).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libcaf-dev          # CAF 0.17.6: the actor framework (CMake refuses >= 0.18)
  librdkafka-dev      # Debian's librdkafka 2.0.2: the oldest supported version (-DSTATUS_STORE_LIBRDKAFKA_PREFIX=system)
  # the default librdkafka (scripts/build-librdkafka.sh): built from Debian 13's source package
  debian-archive-keyring libssl-dev libsasl2-dev zlib1g-dev libzstd-dev liblz4-dev
  libspdlog-dev       # logging, one named logger per component
  nlohmann-json3-dev  # the JSON of Kafka Connect's status values
  libcli11-dev        # command-line parsing of the status-store executable
  libboost-dev        # Boost.Beast over Asio: the HTTP/1.1 listener of `status-store run` (header-only)
  libcpp-httplib-dev  # the HTTP client of the REST benchmark and the interop tests
  libgtest-dev        # unit tests of the pure logic (actor tests use CAF's own test DSL)
  clang-format        # clang-format-14: scripts/format.sh [--check] with the checked-in .clang-format
  # system tests (scripts/kafka-local.sh): Apache Kafka brokers run from Maven Central jars
  openjdk-17-jdk-headless maven
  kcat                # readiness and metadata checks of those brokers
  openssl ca-certificates  # the TLS listener's throwaway CA; a test trusts only the system CAs
  curl python3        # the app tests fetch the HTTP endpoints and check the Prometheus text
  python3-requests    # the HTTPS and Basic auth test drives the listener with a real Python client
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

echo "install-deps: librdkafka $(bash "$(dirname "$0")/build-librdkafka.sh" version) in $(bash "$(dirname "$0")/build-librdkafka.sh")"
