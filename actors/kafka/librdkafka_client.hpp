#pragma once
// The one place that creates librdkafka clients: a configuration from key/value settings, librdkafka's
// log lines routed to spdlog, the caller's callbacks, rd_kafka_new, and a clear error naming a rejected
// setting (its value masked when it is a secret) with nothing leaked on any failure. Also the deadline
// arithmetic librdkafka's int-millisecond timeouts need.
#include "config/client_settings.hpp"

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace status_store {

/// A setting librdkafka refuses (unknown name or invalid value), with librdkafka's reason.
struct rejected_setting {
  std::string key;
  std::string value;
  std::string reason;
  bool unknown_name = false;  // librdkafka has no such property: perhaps a misspelt secret

  /// The value as an error may show it: hidden for a secret and for an unknown name (a misspelt
  /// "sasl.pasword" is still a password); `property` is the name as the operator wrote it.
  std::string shown_value(std::string_view property) const;
  /// librdkafka's reason, with the value hidden wherever shown_value hides it.
  std::string shown_reason(std::string_view property) const;
};

/// Applies `settings` to `conf` in order and stops at the first one librdkafka refuses.
std::optional<rejected_setting> apply_settings(rd_kafka_conf_t* conf, const kafka_settings& settings);
std::optional<rejected_setting> apply_settings(rd_kafka_conf_t* conf,
                                               const std::map<std::string, std::string>& settings);

/// A new client of `type` (the admin API uses a producer handle) holding `settings`; `prepare` sets
/// callbacks and the opaque on the configuration before rd_kafka_new. Throws std::runtime_error
/// "librdkafka rejected <kind> setting key=value: reason" on a bad setting, or "cannot create the
/// <name>: reason" if rd_kafka_new fails.
rd_kafka_t* new_librdkafka_client(rd_kafka_type_t type, const kafka_settings& settings, const char* kind,
                                  const char* name, const std::function<void(rd_kafka_conf_t*)>& prepare = {});

/// Milliseconds left until `deadline`, clamped to [0, INT32_MAX] as librdkafka's timeouts want.
int remaining_ms(std::chrono::steady_clock::time_point deadline);

}  // namespace status_store
