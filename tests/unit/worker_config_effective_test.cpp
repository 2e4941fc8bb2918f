// effective_config (what check-config prints) and the sample config/worker.properties.
#include "worker_config_test_support.hpp"

namespace status_store {
namespace {

// ---- effective_config ----------------------------------------------------------------------------------

TEST(EffectiveConfig, ListsEveryDefaultSortedByKey) {
  const auto effective = effective_config(parse_worker_config(with({})));
  const std::vector<std::pair<std::string, std::string>> expected{
      {"bootstrap.servers", "localhost:9092"},
      {"client.id", ""},
      {"group.id", "connect"},
      {"producer.message.timeout.ms", "15000"},
      {"status.alert.queue.capacity", "1000"},
      {"status.alert.webhook.headers", "[hidden]"},  // secret, even when empty, as Kafka prints a Password
      {"status.alert.webhook.timeout.ms", "10000"},
      {"status.alert.webhook.url", ""},
      {"status.flap.threshold", "3"},
      {"status.flap.window.ms", "600000"},
      {"status.history.max.total", "100000"},
      {"status.history.max.transitions", "16"},
      {"status.storage.partitions", "5"},
      {"status.storage.replication.factor", "3"},
      {"status.storage.retry.backoff.multiplier", "2.0"},
      {"status.storage.retry.initial.backoff.ms", "300"},
      {"status.storage.retry.jitter.factor", "0.25"},
      {"status.storage.retry.max.backoff.ms", "10000"},
      {"status.storage.retry.max.retries", "5"},
      {"status.storage.shutdown.drain.timeout.ms", "10000"},
      {"status.storage.startup.timeout.ms", "60000"},
      {"status.storage.topic", "connect-status"},
      {"status.storage.trace.max.bytes", "65536"},
      {"topic.tracking.allow.reset", "false"},
      {"topic.tracking.enable", "true"},
  };
  EXPECT_EQ(effective, expected);
}

TEST(EffectiveConfig, RestoresPrefixesAndMasksSecrets) {
  const auto effective = effective_config(parse_worker_config(with({
      {"bootstrap.servers", "mock"},
      {"status.storage.min.insync.replicas", "2"},
      {"producer.linger.ms", "20"},
      {"consumer.fetch.wait.max.ms", "100"},
      {"admin.request.timeout.ms", "5000"},
      {"admin.sasl.password", "hunter2"},
      {"security.protocol", "SASL_SSL"},
      {"sasl.mechanism", "PLAIN"},
      {"sasl.jaas.config",
       "org.apache.kafka.common.security.plain.PlainLoginModule required username=u password=hunter2;"},
      {"ssl.key.pem", "-----BEGIN PRIVATE KEY-----"},
      {"status.storage.retry.backoff.multiplier", "3"},
      {"status.storage.retry.jitter.factor", "0.1"},
  })));
  EXPECT_TRUE(std::is_sorted(effective.begin(), effective.end()));
  const auto value_of = [&effective](const std::string& key) -> std::string {
    for (const auto& [name, value] : effective) {
      if (name == key) return value;
    }
    return "<absent>";
  };
  EXPECT_EQ(value_of("bootstrap.servers"), "mock");
  EXPECT_EQ(value_of("status.storage.min.insync.replicas"), "2");
  EXPECT_EQ(value_of("producer.linger.ms"), "20");
  EXPECT_EQ(value_of("consumer.fetch.wait.max.ms"), "100");
  EXPECT_EQ(value_of("admin.request.timeout.ms"), "5000");
  EXPECT_EQ(value_of("admin.sasl.password"), "[hidden]");
  EXPECT_EQ(value_of("security.protocol"), "SASL_SSL");
  EXPECT_EQ(value_of("sasl.password"), "[hidden]");  // translated from sasl.jaas.config
  EXPECT_EQ(value_of("ssl.key.pem"), "[hidden]");
  EXPECT_EQ(value_of("status.storage.retry.backoff.multiplier"), "3.0");
  EXPECT_EQ(value_of("status.storage.retry.jitter.factor"), "0.1");
  for (const auto& [key, value] : effective) {
    EXPECT_EQ(value.find("hunter2"), std::string::npos) << key;
    EXPECT_EQ(value.find("PRIVATE KEY"), std::string::npos) << key;
  }
}

TEST(EffectiveConfig, ShowsTheClientIdWhenSet) {
  const auto effective = effective_config(parse_worker_config(with({{"client.id", "worker-1"}})));
  EXPECT_NE(std::find(effective.begin(), effective.end(), std::pair<std::string, std::string>{"client.id", "worker-1"}),
            effective.end());
}

// ---- the sample file -------------------------------------------------------------------------------------

TEST(SampleWorkerProperties, IsValidWithoutWarnings) {
  std::vector<std::string> warnings;
  const worker_config config =
      parse_worker_config(load_properties_file(STATUS_STORE_SOURCE_DIR "/config/worker.properties"), &warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_TRUE(config.uses_mock_cluster());
  EXPECT_EQ(config.group_id, "connect-cluster");
  EXPECT_EQ(config.status_topic, "connect-status");
  EXPECT_EQ(config.replication_factor, 1);
  EXPECT_EQ(config.partitions, 5);
  EXPECT_EQ(config.retry.max_retries, defaults::max_retries);
  EXPECT_EQ(config.retry.initial_backoff_ms, defaults::initial_backoff_ms);
  EXPECT_EQ(config.retry.max_backoff_ms, defaults::max_backoff_ms);
  EXPECT_EQ(config.retry.backoff_multiplier, defaults::backoff_multiplier);
  EXPECT_EQ(config.retry.jitter_factor, defaults::jitter_factor);
}

}  // namespace
}  // namespace status_store
