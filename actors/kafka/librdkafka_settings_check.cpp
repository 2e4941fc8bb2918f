#include "actors/kafka/librdkafka_settings_check.hpp"

#include "actors/kafka/librdkafka_client.hpp"
#include "config/config_error.hpp"
#include "config/secret_masking.hpp"

#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace status_store {

namespace {

void check_layer(const std::map<std::string, std::string>& settings, std::string_view prefix) {
  const std::unique_ptr<rd_kafka_conf_t, decltype(&rd_kafka_conf_destroy)> conf{rd_kafka_conf_new(),
                                                                                &rd_kafka_conf_destroy};
  if (auto rejected = apply_settings(conf.get(), settings)) {
    const std::string property = std::string{prefix} + rejected->key;
    throw config_error(property, rejected->shown_value(property),
                       "librdkafka refuses it: " + rejected->shown_reason(property));
  }
}

}  // namespace

void check_librdkafka_settings(const worker_config& config) {
  check_layer(config.security_settings, "");
  check_layer(config.producer_overrides, "producer.");
  check_layer(config.consumer_overrides, "consumer.");
  check_layer(config.admin_overrides, "admin.");
}

}  // namespace status_store
