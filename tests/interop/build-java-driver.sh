#!/usr/bin/env bash
# Builds the Java interop driver (tests/interop/java: Kafka Connect's own KafkaStatusBackingStore,
# driven for the `interop` tests and the incumbent benchmark) with Maven into BUILD_DIR/interop-java,
# against org.apache.kafka:connect-runtime of the broker's Kafka version: $KAFKA_VERSION, else the
# default of scripts/kafka-local.sh, so the driver and the broker move together.
#
#   tests/interop/build-java-driver.sh BUILD_DIR      (e.g. build)
#
# Maven keeps what it downloads in ~/.m2 (the first build fetches connect-runtime, its dependencies
# and the build plugins from Maven Central; the script says so and how long it took); later builds
# are offline-fast. The result is BUILD_DIR/interop-java/status-store-interop.jar (with lib/ beside it).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build_dir=$(mkdir -p "$1" && cd "$1" && pwd)

default_version=$(sed -n 's/^KAFKA_VERSION=\${KAFKA_VERSION:-\([^}]*\)}$/\1/p' "$repo/scripts/kafka-local.sh")
kafka_version=${KAFKA_VERSION:-$default_version}
[ -n "$kafka_version" ] || { echo "build-java-driver: cannot tell the broker's Kafka version (KAFKA_VERSION= in scripts/kafka-local.sh)" >&2; exit 1; }
command -v mvn >/dev/null || { echo "build-java-driver: mvn not found (scripts/install-deps.sh installs maven)" >&2; exit 1; }

home=${HOME:-$(cd ~ && pwd)}  # CI may run without HOME; Maven's ~/.m2 is then the passwd entry's home
first=""
[ -d "$home/.m2/repository/org/apache/kafka/connect-runtime/$kafka_version" ] ||
  first=" (first build: downloaded connect-runtime $kafka_version and its dependencies from Maven Central)"
started=$SECONDS
mvn -B -q -Dstyle.color=never -f "$here/java/pom.xml" package \
    -Dkafka.version="$kafka_version" -Dinterop.build.dir="$build_dir/interop-java"
echo "build-java-driver: $build_dir/interop-java/status-store-interop.jar, connect-runtime $kafka_version, built in $((SECONDS - started)) s$first"
