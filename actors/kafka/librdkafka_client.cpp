#include "actors/kafka/librdkafka_client.hpp"

#include "actors/kafka/librdkafka_logging.hpp"
#include "config/secret_masking.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace status_store {

namespace {

template <class Settings>
std::optional<rejected_setting> apply_each(rd_kafka_conf_t* conf, const Settings& settings) {
  char errstr[512];
  for (const auto& [key, value] : settings) {
    const rd_kafka_conf_res_t result = rd_kafka_conf_set(conf, key.c_str(), value.c_str(), errstr, sizeof errstr);
    if (result != RD_KAFKA_CONF_OK) return rejected_setting{key, value, errstr, result == RD_KAFKA_CONF_UNKNOWN};
  }
  return std::nullopt;
}

}  // namespace

std::string rejected_setting::shown_value(std::string_view property) const {
  return unknown_name ? std::string{masked_value} : mask_if_secret(property, value);
}

std::string rejected_setting::shown_reason(std::string_view property) const {
  const std::string shown = shown_value(property);
  if (shown == value || value.empty()) return reason;
  std::string out = reason;
  for (size_t at = out.find(value); at != std::string::npos; at = out.find(value, at + shown.size()))
    out.replace(at, value.size(), shown);
  return out;
}

std::optional<rejected_setting> apply_settings(rd_kafka_conf_t* conf, const kafka_settings& settings) {
  return apply_each(conf, settings);
}

std::optional<rejected_setting> apply_settings(rd_kafka_conf_t* conf,
                                               const std::map<std::string, std::string>& settings) {
  return apply_each(conf, settings);
}

rd_kafka_t* new_librdkafka_client(rd_kafka_type_t type, const kafka_settings& settings, const char* kind,
                                  const char* name, const std::function<void(rd_kafka_conf_t*)>& prepare) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  if (auto rejected = apply_settings(conf, settings)) {
    rd_kafka_conf_destroy(conf);
    throw std::runtime_error(std::string{"librdkafka rejected "} + kind + " setting " + rejected->key + "=" +
                             rejected->shown_value(rejected->key) + ": " + rejected->shown_reason(rejected->key));
  }
  route_librdkafka_logs(conf);
  if (prepare) prepare(conf);
  char errstr[512];
  // rd_kafka_new takes the configuration only when it succeeds.
  rd_kafka_t* rk = rd_kafka_new(type, conf, errstr, sizeof errstr);
  if (!rk) {
    rd_kafka_conf_destroy(conf);
    throw std::runtime_error(std::string{"cannot create the "} + name + ": " + errstr);
  }
  return rk;
}

int remaining_ms(std::chrono::steady_clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
  return static_cast<int>(std::clamp<int64_t>(left, 0, INT32_MAX));
}

}  // namespace status_store
