#pragma once
// The librdkafka loaded at run time, which may differ from the headers built against (a shared
// library upgraded in place): `status-store --version` prints it, since SCRAM to Kafka >= 3.7.2
// needs >= 2.6.1 (docs/librdkafka.md).
#include <string>

namespace status_store {

/// rd_kafka_version_str() of the loaded library, e.g. "2.8.0".
std::string librdkafka_version();

}  // namespace status_store
