#pragma once
// What the integration tests share: a worker configuration on the embedded mock cluster with fast
// but real retries, and the consumer settings that read the store's topic from outside it.
#include "app/store/store.hpp"
#include "config/client_settings.hpp"
#include "config/properties.hpp"
#include "config/worker_config.hpp"
#include "tests/eventually.hpp"

#include <string>

namespace status_store::integration {

/// bootstrap.servers=mock, `topic`, 5 partitions, 30 retries backing off 50..500 ms, 1 s per attempt;
/// then `overrides`.
inline worker_config mock_config(const std::string& topic, const properties& overrides = {}) {
  properties props{
      {"bootstrap.servers", "mock"},
      {"group.id", "it-cluster"},
      {"status.storage.topic", topic},
      {"status.storage.partitions", "5"},
      {"status.storage.replication.factor", "3"},
      {"status.storage.retry.max.retries", "30"},
      {"status.storage.retry.initial.backoff.ms", "50"},
      {"status.storage.retry.max.backoff.ms", "500"},
      {"producer.message.timeout.ms", "1000"},
  };
  for (const auto& [key, value] : overrides) props[key] = value;
  return parse_worker_config(props);
}

/// A consumer of the store's cluster, for reading what reached the topic.
inline kafka_settings reader_settings(const store& s) {
  kafka_settings settings = consumer_settings(s.config());
  settings.emplace_back("bootstrap.servers", s.bootstrap_servers());
  return settings;
}

using test_support::eventually;

}  // namespace status_store::integration
