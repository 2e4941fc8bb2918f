// The librdkafka settings of the status producer, consumer and admin client: their layers, their
// order, and that forced settings always win.
#include "config/client_settings.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace status_store {
namespace {

worker_config config_with(properties extra) {
  extra.emplace("status.storage.topic", "connect-status");
  extra.emplace("group.id", "connect-cluster");
  return parse_worker_config(extra);
}

std::optional<std::string> value_of(const kafka_settings& settings, const std::string& key) {
  for (const auto& [name, value] : settings) {
    if (name == key) return value;
  }
  return std::nullopt;
}

std::ptrdiff_t position_of(const kafka_settings& settings, const std::string& key) {
  const auto found =
      std::find_if(settings.begin(), settings.end(), [&key](const auto& setting) { return setting.first == key; });
  return found == settings.end() ? -1 : found - settings.begin();
}

bool keys_are_unique(const kafka_settings& settings) {
  std::set<std::string> keys;
  for (const auto& [key, value] : settings) {
    if (!keys.insert(key).second) return false;
  }
  return true;
}

/// The final librdkafka state if the list is applied in order.
std::map<std::string, std::string> applied(const kafka_settings& settings) {
  std::map<std::string, std::string> result;
  for (const auto& [key, value] : settings) result.insert_or_assign(key, value);
  return result;
}

TEST(ProducerSettings, DefaultConfiguration) {
  const kafka_settings expected{
      {"bootstrap.servers", "localhost:9092"},
      {"reconnect.backoff.max.ms", "1000"},
      {"linger.ms", "5"},
      {"acks", "all"},
      {"enable.idempotence", "false"},
      {"retries", "0"},
      {"max.in.flight.requests.per.connection", "1"},
      {"partitioner", "murmur2_random"},
      {"client.id", "connect-cluster-statuses"},
      {"message.timeout.ms", "15000"},
  };
  EXPECT_EQ(producer_settings(config_with({})), expected);
}

TEST(ProducerSettings, LayersComeInOrder) {
  const kafka_settings settings = producer_settings(config_with({
      {"bootstrap.servers", "b1:9092,b2:9092"},
      {"security.protocol", "SASL_SSL"},
      {"sasl.mechanism", "PLAIN"},
      {"producer.compression.type", "lz4"},
  }));
  EXPECT_EQ(position_of(settings, "bootstrap.servers"), 0);
  EXPECT_LT(position_of(settings, "bootstrap.servers"), position_of(settings, "sasl.mechanism"));
  EXPECT_LT(position_of(settings, "security.protocol"), position_of(settings, "reconnect.backoff.max.ms"));
  EXPECT_LT(position_of(settings, "linger.ms"), position_of(settings, "compression.type"));
  EXPECT_LT(position_of(settings, "compression.type"), position_of(settings, "acks"));
  EXPECT_EQ(value_of(settings, "bootstrap.servers"), "b1:9092,b2:9092");
  EXPECT_EQ(value_of(settings, "sasl.mechanism"), "PLAIN");  // Java's name, librdkafka's alias
  EXPECT_EQ(settings.back(), (std::pair<std::string, std::string>{"message.timeout.ms", "15000"}));
}

TEST(ProducerSettings, UserMayOverrideStatusStoreDefaults) {
  const kafka_settings settings =
      producer_settings(config_with({{"producer.linger.ms", "50"}, {"producer.reconnect.backoff.max.ms", "200"}}));
  EXPECT_EQ(value_of(settings, "linger.ms"), "50");
  EXPECT_EQ(value_of(settings, "reconnect.backoff.max.ms"), "200");
  EXPECT_TRUE(keys_are_unique(settings));
}

TEST(ProducerSettings, ForcedSettingsWinOverOverrides) {
  const kafka_settings settings = producer_settings(config_with({
      {"producer.acks", "1"},
      {"producer.enable.idempotence", "true"},
      {"producer.retries", "10"},
      {"producer.max.in.flight.requests.per.connection", "5"},
      {"producer.partitioner", "consistent_random"},
      {"producer.client.id", "mine"},
  }));
  EXPECT_TRUE(keys_are_unique(settings));
  const auto state = applied(settings);
  EXPECT_EQ(state.at("acks"), "all");
  EXPECT_EQ(state.at("enable.idempotence"), "false");
  EXPECT_EQ(state.at("retries"), "0");
  EXPECT_EQ(state.at("max.in.flight.requests.per.connection"), "1");
  EXPECT_EQ(state.at("partitioner"), "murmur2_random");
  EXPECT_EQ(state.at("client.id"), "connect-cluster-statuses");
}

TEST(ProducerSettings, ForcedSettingsComeAfterAliasedOverrides) {
  // librdkafka aliases set the same property, so the forced one must be set later to win.
  const kafka_settings settings = producer_settings(config_with({
      {"producer.message.send.max.retries", "10"},
      {"producer.request.required.acks", "1"},
      {"producer.delivery.timeout.ms", "120000"},
  }));
  EXPECT_LT(position_of(settings, "message.send.max.retries"), position_of(settings, "retries"));
  EXPECT_LT(position_of(settings, "request.required.acks"), position_of(settings, "acks"));
  EXPECT_LT(position_of(settings, "delivery.timeout.ms"), position_of(settings, "message.timeout.ms"));
}

TEST(ProducerSettings, MessageTimeoutComesFromTheConfig) {
  const kafka_settings settings = producer_settings(config_with({{"producer.message.timeout.ms", "30000"}}));
  EXPECT_EQ(value_of(settings, "message.timeout.ms"), "30000");
  EXPECT_TRUE(keys_are_unique(settings));
}

TEST(ProducerSettings, ClientIdIncludesTheUsersClientId) {
  const kafka_settings settings = producer_settings(config_with({{"client.id", "worker-1"}}));
  EXPECT_EQ(value_of(settings, "client.id"), "connect-cluster-worker-1-statuses");
}

TEST(ProducerSettings, MockClusterLeavesBootstrapServersToTheCaller) {
  const kafka_settings settings = producer_settings(config_with({{"bootstrap.servers", "mock"}}));
  EXPECT_EQ(value_of(settings, "bootstrap.servers"), std::nullopt);
  EXPECT_EQ(value_of(consumer_settings(config_with({{"bootstrap.servers", "mock"}})), "bootstrap.servers"),
            std::nullopt);
  EXPECT_EQ(value_of(admin_settings(config_with({{"bootstrap.servers", "mock"}})), "bootstrap.servers"), std::nullopt);
}

TEST(ProducerSettings, SecretsArePassedUnmasked) {
  const kafka_settings settings = producer_settings(config_with({{"sasl.password", "hunter2"}}));
  EXPECT_EQ(value_of(settings, "sasl.password"), "hunter2");
}

TEST(ProducerSettings, OverridesOfOtherClientsDoNotLeakIn) {
  const kafka_settings settings =
      producer_settings(config_with({{"consumer.fetch.wait.max.ms", "1"}, {"admin.request.timeout.ms", "1"}}));
  EXPECT_EQ(value_of(settings, "fetch.wait.max.ms"), std::nullopt);
  EXPECT_EQ(value_of(settings, "request.timeout.ms"), std::nullopt);
}

TEST(ConsumerSettings, DefaultConfiguration) {
  const kafka_settings expected{
      {"bootstrap.servers", "localhost:9092"},  {"reconnect.backoff.max.ms", "1000"},
      {"enable.auto.commit", "false"},          {"auto.offset.reset", "earliest"},
      {"enable.partition.eof", "true"},         {"client.id", "connect-cluster-statuses"},
      {"group.id", "connect-cluster-statuses"},
  };
  EXPECT_EQ(consumer_settings(config_with({})), expected);
}

TEST(ConsumerSettings, OverridesApplyAndForcedSettingsWin) {
  const kafka_settings settings = consumer_settings(config_with({
      {"security.protocol", "SSL"},
      {"consumer.fetch.wait.max.ms", "100"},
      {"consumer.reconnect.backoff.max.ms", "300"},
      {"consumer.enable.auto.commit", "true"},
      {"consumer.auto.offset.reset", "latest"},
      {"consumer.group.id", "mine"},
      {"producer.linger.ms", "50"},
  }));
  EXPECT_TRUE(keys_are_unique(settings));
  EXPECT_EQ(value_of(settings, "security.protocol"), "SSL");
  EXPECT_EQ(value_of(settings, "fetch.wait.max.ms"), "100");
  EXPECT_EQ(value_of(settings, "reconnect.backoff.max.ms"), "300");
  EXPECT_EQ(value_of(settings, "enable.auto.commit"), "false");
  EXPECT_EQ(value_of(settings, "auto.offset.reset"), "earliest");
  EXPECT_EQ(value_of(settings, "group.id"), "connect-cluster-statuses");
  EXPECT_EQ(value_of(settings, "linger.ms"), std::nullopt);
}

TEST(AdminSettings, DefaultConfiguration) {
  const kafka_settings expected{
      {"bootstrap.servers", "localhost:9092"},
      {"client.id", "connect-cluster-shared-admin"},
  };
  EXPECT_EQ(admin_settings(config_with({})), expected);
}

TEST(AdminSettings, OverridesAndSecurityApplyAndClientIdIsForced) {
  const kafka_settings settings = admin_settings(config_with({
      {"client.id", "worker-1"},
      {"sasl.mechanism", "SCRAM-SHA-512"},
      {"admin.request.timeout.ms", "5000"},
      {"admin.client.id", "mine"},
  }));
  EXPECT_TRUE(keys_are_unique(settings));
  EXPECT_EQ(value_of(settings, "sasl.mechanism"), "SCRAM-SHA-512");
  EXPECT_EQ(value_of(settings, "request.timeout.ms"), "5000");
  EXPECT_EQ(settings.back(),
            (std::pair<std::string, std::string>{"client.id", "connect-cluster-worker-1-shared-admin"}));
}

TEST(ForcedSettings, AreTheTailOfEachList) {
  const worker_config config = config_with({{"producer.acks", "1"}, {"consumer.group.id", "x"}});
  const auto is_tail = [](const kafka_settings& list, const kafka_settings& tail) {
    return list.size() >= tail.size() && std::equal(tail.begin(), tail.end(), list.end() - tail.size());
  };
  EXPECT_TRUE(is_tail(producer_settings(config), forced_producer_settings(config)));
  EXPECT_TRUE(is_tail(consumer_settings(config), forced_consumer_settings(config)));
  EXPECT_TRUE(is_tail(admin_settings(config), forced_admin_settings(config)));
}

}  // namespace
}  // namespace status_store
