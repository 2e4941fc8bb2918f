#pragma once
// librdkafka logs through its own printf-style stderr handler by default; route it into the
// "status-store.librdkafka" spdlog logger so every line has the same format, level and timestamp.
#include <librdkafka/rdkafka.h>

namespace status_store {

/// Installs the log callback on `conf` (before rd_kafka_new).
void route_librdkafka_logs(rd_kafka_conf_t* conf);

}  // namespace status_store
