#include "actors/kafka/librdkafka_logging.hpp"

#include "config/logging.hpp"

namespace status_store {

namespace {

// librdkafka uses syslog levels: 0 emerg .. 7 debug.
spdlog::level::level_enum to_spdlog_level(int syslog_level) {
  if (syslog_level <= 3) return spdlog::level::err;
  if (syslog_level == 4) return spdlog::level::warn;
  if (syslog_level <= 6) return spdlog::level::info;
  return spdlog::level::debug;
}

void on_log(const rd_kafka_t* rk, int level, const char* facility, const char* message) {
  // Called from librdkafka's threads; spdlog's *_mt loggers are thread-safe.
  static const auto logger = component_logger("librdkafka");
  logger->log(to_spdlog_level(level), "[{}] {}: {}", rk ? rd_kafka_name(rk) : "-", facility, message);
}

}  // namespace

void route_librdkafka_logs(rd_kafka_conf_t* conf) { rd_kafka_conf_set_log_cb(conf, &on_log); }

}  // namespace status_store
