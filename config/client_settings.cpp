#include "config/client_settings.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>

namespace status_store {

namespace {

/// Builds a settings list layer by layer, keeping every key once at its last position (see the
/// header for why that is equivalent to applying the layers in turn).
class settings_builder {
 public:
  void set(std::string_view key, std::string value) {
    const auto existing =
        std::find_if(settings_.begin(), settings_.end(), [key](const auto& setting) { return setting.first == key; });
    if (existing != settings_.end()) settings_.erase(existing);
    settings_.emplace_back(std::string{key}, std::move(value));
  }

  void set_all(const kafka_settings& layer) {
    for (const auto& [key, value] : layer) set(key, value);
  }

  void set_all(const std::map<std::string, std::string>& layer) {
    for (const auto& [key, value] : layer) set(key, value);
  }

  kafka_settings take() { return std::move(settings_); }

 private:
  kafka_settings settings_;
};

void set_common(settings_builder& builder, const worker_config& config) {
  // With the mock cluster the caller substitutes the mock's own bootstrap list.
  if (!config.uses_mock_cluster()) builder.set("bootstrap.servers", config.bootstrap_servers);
  // Passed as written: the client library knows security.protocol and most sasl.* / ssl.* names (Java's
  // sasl.mechanism is its alias of sasl.mechanisms); a Java-only name is reported by
  // rd_kafka_conf_set when the client is created.
  builder.set_all(config.security_settings);
}

}  // namespace

kafka_settings forced_producer_settings(const worker_config& config) {
  return {
      // Durable writes: a status must survive the loss of the leader (KafkaBasedLog forces acks=all).
      {"acks", "all"},
      // The retry scheduler owns retries with the KIP's backoff, so the client must not retry on
      // its own; idempotence would require retries > 0 (KAFKA-13759), so it is off.
      {"enable.idempotence", "false"},
      {"retries", "0"},
      // One request in flight per connection, as KafkaBasedLog forces: with more, a request that
      // fails can be overtaken by the next one, and an older status would land after a newer one.
      {"max.in.flight.requests.per.connection", "1"},
      // Java's default partitioner is murmur2 on the key; the client library's is CRC32. Without this, Java
      // and C++ workers sharing the topic would put one key into two partitions and compaction
      // could resurrect a stale status.
      {"partitioner", "murmur2_random"},
      {"client.id", config.status_client_id()},
      // One attempt's bound; the retry policy works in units of it (see defaults.hpp).
      {"message.timeout.ms", std::to_string(config.message_timeout_ms)},
  };
}

kafka_settings forced_consumer_settings(const worker_config& config) {
  return {
      // The reader assigns every partition and reads from the beginning, like KafkaBasedLog; it is
      // never a group member, so there is nothing to commit.
      {"enable.auto.commit", "false"},
      {"auto.offset.reset", "earliest"},
      // End-of-partition events tell the reader it has caught up (Java's readToEnd).
      {"enable.partition.eof", "true"},
      {"client.id", config.status_client_id()},
      // The client library 2.0.2's assign() refuses to work without a group.id although no group is joined.
      {"group.id", config.status_client_id()},
  };
}

kafka_settings forced_admin_settings(const worker_config& config) {
  // The name Connect gives its shared admin client, so broker logs read the same for both.
  return {{"client.id", config.client_id_base() + "shared-admin"}};
}

// In all three, a user override of a forced key does not fail: the forced value is applied last and
// wins. parse_worker_config tells the operator with a warning; these functions stay pure.

namespace {

/// Common settings, then the client's own defaults, the user's overrides, and the forced values last.
kafka_settings build(const worker_config& config, const kafka_settings& defaults_of_client,
                     const std::map<std::string, std::string>& overrides, const kafka_settings& forced) {
  settings_builder builder;
  set_common(builder, config);
  for (const auto& [key, value] : defaults_of_client) builder.set(key, value);
  builder.set_all(overrides);
  builder.set_all(forced);
  return builder.take();
}

}  // namespace

kafka_settings producer_settings(const worker_config& config) {
  return build(config,
               {{"reconnect.backoff.max.ms", std::to_string(defaults::reconnect_backoff_max_ms)},
                {"linger.ms", std::to_string(defaults::linger_ms)}},
               config.producer_overrides, forced_producer_settings(config));
}

kafka_settings consumer_settings(const worker_config& config) {
  return build(config, {{"reconnect.backoff.max.ms", std::to_string(defaults::reconnect_backoff_max_ms)}},
               config.consumer_overrides, forced_consumer_settings(config));
}

kafka_settings admin_settings(const worker_config& config) {
  return build(config, {}, config.admin_overrides, forced_admin_settings(config));
}

}  // namespace status_store
