#include "app/librdkafka_settings_check.hpp"

#include "config/config_error.hpp"
#include "config/secret_masking.hpp"

#include <librdkafka/rdkafka.h>

#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace status_store::cli {

namespace {

void check_layer(const std::map<std::string, std::string>& settings, std::string_view prefix) {
  const std::unique_ptr<rd_kafka_conf_t, decltype(&rd_kafka_conf_destroy)> conf{rd_kafka_conf_new(),
                                                                                  &rd_kafka_conf_destroy};
  for (const auto& [key, value] : settings) {
    char errstr[512];
    if (rd_kafka_conf_set(conf.get(), key.c_str(), value.c_str(), errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
      const std::string property = std::string{prefix} + key;
      throw config_error(property, mask_if_secret(property, value), std::string{"librdkafka refuses it: "} + errstr);
    }
  }
}

}  // namespace

void check_librdkafka_settings(const worker_config& config) {
  check_layer(config.security_settings, "");
  check_layer(config.producer_overrides, "producer.");
  check_layer(config.consumer_overrides, "consumer.");
  check_layer(config.admin_overrides, "admin.");
}

}  // namespace status_store::cli
