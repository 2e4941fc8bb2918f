#pragma once
// What every librdkafka client of the store does first: a configuration from key/value settings,
// with librdkafka's log lines routed to spdlog, and a clear error naming a rejected setting (its
// value masked when it is a secret). Also the deadline arithmetic librdkafka's int-millisecond
// timeouts need.
#include "config/client_settings.hpp"

#include <librdkafka/rdkafka.h>

#include <chrono>

namespace status_store {

/// A new configuration holding `settings`; throws std::runtime_error
/// "librdkafka rejected <kind> setting key=value: reason" (and frees it) on a bad setting.
rd_kafka_conf_t* make_librdkafka_conf(const kafka_settings& settings, const char* kind);

/// Milliseconds left until `deadline`, clamped to [0, INT32_MAX] as librdkafka's timeouts want.
int remaining_ms(std::chrono::steady_clock::time_point deadline);

}  // namespace status_store
