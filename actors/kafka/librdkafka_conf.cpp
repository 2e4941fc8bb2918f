#include "actors/kafka/librdkafka_conf.hpp"

#include "actors/kafka/librdkafka_logging.hpp"
#include "config/secret_masking.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace status_store {

rd_kafka_conf_t* make_librdkafka_conf(const kafka_settings& settings, const char* kind) {
  char errstr[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  for (const auto& [key, value] : settings) {
    if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      throw std::runtime_error(std::string{"librdkafka rejected "} + kind + " setting " + key + "=" +
                               mask_if_secret(key, value) + ": " + errstr);
    }
  }
  route_librdkafka_logs(conf);
  return conf;
}

int remaining_ms(std::chrono::steady_clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
  return static_cast<int>(std::clamp<int64_t>(left, 0, INT32_MAX));
}

}  // namespace status_store
