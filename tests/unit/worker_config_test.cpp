// parse_worker_config and effective_config: every setting, its default, and each validation rule at
// its boundaries, with the exact Kafka/Connect wording of the errors.
#include "config/worker_config.hpp"
#include "config/config_error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace status_store {
namespace {

constexpr const char* topic_key = "status.storage.topic";

/// The smallest valid configuration plus `extra`.
properties with(properties extra) {
  extra.emplace(topic_key, "connect-status");
  return extra;
}

/// The config_error parse_worker_config throws for `props`; fails the test if it does not throw.
std::optional<config_error> error_for(const properties& props) {
  try {
    parse_worker_config(props);
  } catch (const config_error& error) {
    return error;
  }
  ADD_FAILURE() << "expected a config_error";
  return std::nullopt;
}

std::vector<std::string> warnings_for(const properties& props) {
  std::vector<std::string> warnings;
  parse_worker_config(props, &warnings);
  return warnings;
}

bool contains(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

std::string unknown_key_warning(const std::string& key) {
  return "Unknown configuration '" + key + "' was supplied but isn't a known config.";
}

// ---- config_error ------------------------------------------------------------------------------------

TEST(ConfigError, UsesKafkaConfigExceptionWording) {
  const config_error error{"status.storage.partitions", "0", "some rule"};
  EXPECT_STREQ(error.what(), "Invalid value 0 for configuration status.storage.partitions: some rule");
  EXPECT_EQ(error.property(), "status.storage.partitions");
  EXPECT_EQ(error.value(), "0");
  EXPECT_EQ(error.rule(), "some rule");
}

TEST(ConfigError, WithMessageIsTheMessageAlone) {
  const config_error error = config_error::with_message("p", "v", "A whole sentence.");
  EXPECT_STREQ(error.what(), "A whole sentence.");
  EXPECT_EQ(error.property(), "p");
  EXPECT_EQ(error.value(), "v");
  EXPECT_EQ(error.rule(), "A whole sentence.");
}

// ---- defaults --------------------------------------------------------------------------------------

TEST(WorkerConfigDefaults, MinimalConfigGetsEveryDefault) {
  std::vector<std::string> warnings;
  const worker_config config = parse_worker_config(with({}), &warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(config.bootstrap_servers, "localhost:9092");
  EXPECT_FALSE(config.uses_mock_cluster());
  EXPECT_EQ(config.group_id, "connect");
  EXPECT_EQ(config.client_id, "");
  EXPECT_EQ(config.status_topic, "connect-status");
  EXPECT_EQ(config.partitions, 5);
  EXPECT_EQ(config.replication_factor, 3);
  EXPECT_TRUE(config.topic_settings.empty());
  EXPECT_EQ(config.retry.max_retries, 5);
  EXPECT_EQ(config.retry.initial_backoff_ms, 300);
  EXPECT_EQ(config.retry.max_backoff_ms, 10000);
  EXPECT_EQ(config.retry.backoff_multiplier, 2.0);
  EXPECT_EQ(config.retry.jitter_factor, 0.25);
  EXPECT_EQ(config.message_timeout_ms, 15000);
  EXPECT_EQ(config.shutdown_drain_timeout_ms, 10000);
  EXPECT_EQ(config.trace_max_bytes, 65536);
  EXPECT_FALSE(config.topic_tracking_allow_reset);
  EXPECT_TRUE(config.topic_tracking_enable);
  EXPECT_TRUE(config.producer_overrides.empty());
  EXPECT_TRUE(config.consumer_overrides.empty());
  EXPECT_TRUE(config.admin_overrides.empty());
  EXPECT_TRUE(config.security_settings.empty());
}

TEST(WorkerConfigDefaults, WarningsOutputIsOptional) {
  EXPECT_NO_THROW(parse_worker_config(with({{"no.such.key", "x"}})));
}

// ---- bootstrap.servers, group.id, client.id ------------------------------------------------------------

TEST(WorkerConfigCluster, MockSelectsTheEmbeddedCluster) {
  const worker_config config = parse_worker_config(with({{"bootstrap.servers", " mock "}}));
  EXPECT_EQ(config.bootstrap_servers, "mock");
  EXPECT_TRUE(config.uses_mock_cluster());
}

TEST(WorkerConfigCluster, ServerListIsTrimmedLikeKafkasListType) {
  const worker_config config = parse_worker_config(with({{"bootstrap.servers", " a:9092 , b:9093,,c:9094 "}}));
  EXPECT_EQ(config.bootstrap_servers, "a:9092,b:9093,c:9094");
}

TEST(WorkerConfigCluster, BlankServerListIsRejected) {
  for (const std::string blank : {"", "   ", " , ,"}) {
    const auto error = error_for(with({{"bootstrap.servers", blank}}));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->property(), "bootstrap.servers");
    EXPECT_EQ(error->rule(), "Must list at least one host:port, or be \"mock\" for the embedded mock cluster");
  }
}

TEST(WorkerConfigCluster, ClientIdBaseFollowsConnect) {
  worker_config config = parse_worker_config(with({{"group.id", "connect-cluster"}}));
  EXPECT_EQ(config.client_id_base(), "connect-cluster-");
  EXPECT_EQ(config.status_client_id(), "connect-cluster-statuses");

  config = parse_worker_config(with({{"group.id", "connect-cluster"}, {"client.id", "worker-1"}}));
  EXPECT_EQ(config.client_id_base(), "connect-cluster-worker-1-");
  EXPECT_EQ(config.status_client_id(), "connect-cluster-worker-1-statuses");
}

TEST(WorkerConfigCluster, DefaultGroupIdIsConnect) {
  EXPECT_EQ(parse_worker_config(with({})).status_client_id(), "connect-statuses");
}

TEST(WorkerConfigCluster, BlankClientIdMeansUnset) {
  const worker_config config = parse_worker_config(with({{"client.id", "   "}}));
  EXPECT_EQ(config.client_id, "");
  EXPECT_EQ(config.client_id_base(), "connect-");
}

TEST(WorkerConfigCluster, BlankGroupIdIsRejected) {
  const auto error = error_for(with({{"group.id", "  "}}));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "group.id");
  EXPECT_EQ(error->rule(), "Must not be blank");
}

// ---- status.storage.topic ------------------------------------------------------------------------------

const std::string missing_topic =
    "Must specify topic for connector status. Set status.storage.topic to the name of the status topic (the one "
    "every worker sharing these statuses uses, e.g. connect-status).";

TEST(WorkerConfigTopic, MissingTopicUsesConnectsSentenceAndNamesTheProperty) {
  const auto error = error_for({});
  ASSERT_TRUE(error);
  EXPECT_EQ(error->what(), missing_topic);
  EXPECT_EQ(error->property(), "status.storage.topic");
  EXPECT_EQ(error->rule(), missing_topic);
}

TEST(WorkerConfigTopic, BlankTopicUsesConnectsSentenceAndNamesTheProperty) {
  for (const std::string blank : {"", " ", "\t  \f"}) {
    const auto error = error_for({{topic_key, blank}});
    ASSERT_TRUE(error);
    EXPECT_EQ(error->what(), missing_topic);
    EXPECT_EQ(error->property(), "status.storage.topic");
  }
}

TEST(WorkerConfigTopic, TopicIsTrimmed) {
  EXPECT_EQ(parse_worker_config({{topic_key, "  connect-status \t"}}).status_topic, "connect-status");
}

TEST(WorkerConfigTopic, LegalTopicNames) {
  const std::vector<std::string> names{"a", "connect-status", "Connect_Status.v2", std::string(249, 'x')};
  for (const std::string& name : names) {
    EXPECT_EQ(parse_worker_config({{topic_key, name}}).status_topic, name);
  }
}

TEST(WorkerConfigTopic, IllegalTopicNamesUseKafkasRules) {
  auto error = error_for({{topic_key, "."}});
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rule(), "Topic name cannot be \".\" or \"..\"");
  error = error_for({{topic_key, ".."}});
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rule(), "Topic name cannot be \".\" or \"..\"");

  const std::string too_long(250, 'x');
  error = error_for({{topic_key, too_long}});
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rule(), "Topic name is illegal, it can't be longer than 249 characters, topic name: " + too_long);

  error = error_for({{topic_key, "status topic"}});
  ASSERT_TRUE(error);
  EXPECT_STREQ(error->what(),
               "Invalid value status topic for configuration status.storage.topic: Topic name \"status topic\" is "
               "illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'");
}

// ---- numeric settings: one table of boundaries -------------------------------------------------------

struct numeric_case {
  std::string key;
  std::string value;
  std::string rule;  // empty: the value is valid
};

std::ostream& operator<<(std::ostream& out, const numeric_case& c) {
  return out << c.key << "='" << c.value << "' -> " << (c.rule.empty() ? "valid" : c.rule);
}

class WorkerConfigNumeric : public ::testing::TestWithParam<numeric_case> {};

TEST_P(WorkerConfigNumeric, AcceptsOrRejectsWithKafkasWording) {
  const numeric_case& c = GetParam();
  properties props = with({{c.key, c.value}});
  // Let the backoff bounds be tested alone, without tripping the initial <= max cross-check.
  if (c.key == "status.storage.retry.initial.backoff.ms") {
    props.emplace("status.storage.retry.max.backoff.ms", "9223372036854775807");
  }
  if (c.key == "status.storage.retry.max.backoff.ms") props.emplace("status.storage.retry.initial.backoff.ms", "0");
  if (c.rule.empty()) {
    EXPECT_NO_THROW(parse_worker_config(props));
    return;
  }
  const auto error = error_for(props);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), c.key);
  EXPECT_EQ(error->value(), std::string{c.value});
  EXPECT_EQ(error->rule(), c.rule);
  EXPECT_EQ(std::string{error->what()}, "Invalid value " + c.value + " for configuration " + c.key + ": " + c.rule);
}

const std::string partitions_rule = "Number of partitions must be positive, or -1 to use the broker's default";
const std::string replication_rule =
    "Replication factor must be positive and not larger than the number of brokers in the Kafka cluster, or -1 "
    "to use the broker's default";

INSTANTIATE_TEST_SUITE_P(
    Partitions, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.storage.partitions", "1", ""},
                      numeric_case{"status.storage.partitions", "-1", ""},
                      numeric_case{"status.storage.partitions", "2147483647", ""},
                      numeric_case{"status.storage.partitions", "+7", ""},
                      numeric_case{"status.storage.partitions", "0", partitions_rule},
                      numeric_case{"status.storage.partitions", "-2", partitions_rule},
                      numeric_case{"status.storage.partitions", "2147483648", "Not a number of type INT"},
                      numeric_case{"status.storage.partitions", "five", "Not a number of type INT"},
                      numeric_case{"status.storage.partitions", "5.0", "Not a number of type INT"}));

INSTANTIATE_TEST_SUITE_P(
    ReplicationFactor, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.storage.replication.factor", "1", ""},
                      numeric_case{"status.storage.replication.factor", "-1", ""},
                      numeric_case{"status.storage.replication.factor", "32767", ""},
                      numeric_case{"status.storage.replication.factor", "0", replication_rule},
                      numeric_case{"status.storage.replication.factor", "-2", replication_rule},
                      numeric_case{"status.storage.replication.factor", "-32768", replication_rule},
                      numeric_case{"status.storage.replication.factor", "32768", "Not a number of type SHORT"},
                      numeric_case{"status.storage.replication.factor", "-32769", "Not a number of type SHORT"},
                      numeric_case{"status.storage.replication.factor", "3x", "Not a number of type SHORT"}));

INSTANTIATE_TEST_SUITE_P(
    MaxRetries, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.storage.retry.max.retries", "0", ""},
                      numeric_case{"status.storage.retry.max.retries", "2147483647", ""},
                      numeric_case{"status.storage.retry.max.retries", "-1", "Value must be at least 0"},
                      numeric_case{"status.storage.retry.max.retries", "-2147483648", "Value must be at least 0"},
                      numeric_case{"status.storage.retry.max.retries", "2147483648", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "99999999999999999999999",
                                   "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "abc", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "5x", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "1.5", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "1e3", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "0x10", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "+", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "-", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "+-1", "Not a number of type INT"},
                      numeric_case{"status.storage.retry.max.retries", "1 2", "Not a number of type INT"}));

INSTANTIATE_TEST_SUITE_P(
    InitialBackoff, WorkerConfigNumeric,
    ::testing::Values(
        numeric_case{"status.storage.retry.initial.backoff.ms", "0", ""},
        numeric_case{"status.storage.retry.initial.backoff.ms", "9223372036854775807", ""},
        numeric_case{"status.storage.retry.initial.backoff.ms", "-1", "Value must be at least 0"},
        numeric_case{"status.storage.retry.initial.backoff.ms", "9223372036854775808", "Not a number of type LONG"},
        numeric_case{"status.storage.retry.initial.backoff.ms", "-9223372036854775809", "Not a number of type LONG"},
        numeric_case{"status.storage.retry.initial.backoff.ms", "300ms", "Not a number of type LONG"},
        numeric_case{"status.storage.retry.initial.backoff.ms", "", "Not a number of type LONG"}));

INSTANTIATE_TEST_SUITE_P(
    MaxBackoff, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.storage.retry.max.backoff.ms", "0", ""},
                      numeric_case{"status.storage.retry.max.backoff.ms", "9223372036854775807", ""},
                      numeric_case{"status.storage.retry.max.backoff.ms", "-1", "Value must be at least 0"},
                      numeric_case{"status.storage.retry.max.backoff.ms", "9223372036854775808",
                                   "Not a number of type LONG"},
                      numeric_case{"status.storage.retry.max.backoff.ms", "10s", "Not a number of type LONG"}));

INSTANTIATE_TEST_SUITE_P(
    Multiplier, WorkerConfigNumeric,
    ::testing::Values(
        numeric_case{"status.storage.retry.backoff.multiplier", "1.0", ""},
        numeric_case{"status.storage.retry.backoff.multiplier", "1", ""},
        numeric_case{"status.storage.retry.backoff.multiplier", "1000000", ""},
        numeric_case{"status.storage.retry.backoff.multiplier", "1e300", ""},
        numeric_case{"status.storage.retry.backoff.multiplier", "1.", ""},
        numeric_case{"status.storage.retry.backoff.multiplier", "+2.5E0", ""},
        numeric_case{"status.storage.retry.backoff.multiplier", "0.99", "Value must be at least 1.0"},
        numeric_case{"status.storage.retry.backoff.multiplier", "0.9999999999", "Value must be at least 1.0"},
        numeric_case{"status.storage.retry.backoff.multiplier", "-2", "Value must be at least 1.0"},
        numeric_case{"status.storage.retry.backoff.multiplier", "1e-400", "Value must be at least 1.0"},
        numeric_case{"status.storage.retry.backoff.multiplier", "1e400", "Value must be a finite number"},
        numeric_case{"status.storage.retry.backoff.multiplier", "inf", "Value must be a finite number"},
        numeric_case{"status.storage.retry.backoff.multiplier", "Infinity", "Value must be a finite number"},
        numeric_case{"status.storage.retry.backoff.multiplier", "NaN", "Value must be a finite number"},
        numeric_case{"status.storage.retry.backoff.multiplier", "two", "Not a number of type DOUBLE"},
        numeric_case{"status.storage.retry.backoff.multiplier", "2.0d", "Not a number of type DOUBLE"},
        numeric_case{"status.storage.retry.backoff.multiplier", "0x1p1", "Not a number of type DOUBLE"},
        numeric_case{"status.storage.retry.backoff.multiplier", "", "Not a number of type DOUBLE"},
        numeric_case{"status.storage.retry.backoff.multiplier", ".", "Not a number of type DOUBLE"},
        numeric_case{"status.storage.retry.backoff.multiplier", "2e", "Not a number of type DOUBLE"},
        numeric_case{"status.storage.retry.backoff.multiplier", "2,5", "Not a number of type DOUBLE"}));

INSTANTIATE_TEST_SUITE_P(
    Jitter, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.storage.retry.jitter.factor", "0.0", ""},
                      numeric_case{"status.storage.retry.jitter.factor", "0", ""},
                      numeric_case{"status.storage.retry.jitter.factor", "-0.0", ""},
                      numeric_case{"status.storage.retry.jitter.factor", "1.0", ""},
                      numeric_case{"status.storage.retry.jitter.factor", ".5", ""},
                      numeric_case{"status.storage.retry.jitter.factor", "1e-400", ""},
                      numeric_case{"status.storage.retry.jitter.factor", "1.0000001", "Value must be no more than 1.0"},
                      numeric_case{"status.storage.retry.jitter.factor", "2", "Value must be no more than 1.0"},
                      numeric_case{"status.storage.retry.jitter.factor", "-0.1", "Value must be at least 0.0"},
                      numeric_case{"status.storage.retry.jitter.factor", "NaN", "Value must be a finite number"},
                      numeric_case{"status.storage.retry.jitter.factor", "-inf", "Value must be a finite number"},
                      numeric_case{"status.storage.retry.jitter.factor", "quarter", "Not a number of type DOUBLE"}));

INSTANTIATE_TEST_SUITE_P(
    MessageTimeout, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"producer.message.timeout.ms", "1", ""},
                      numeric_case{"producer.message.timeout.ms", "2147483647", ""},
                      numeric_case{"producer.message.timeout.ms", "0", "Value must be at least 1"},
                      numeric_case{"producer.message.timeout.ms", "-5", "Value must be at least 1"},
                      numeric_case{"producer.message.timeout.ms", "2147483648",
                                   "Value must be no more than 2147483647"},
                      numeric_case{"producer.message.timeout.ms", "15s", "Not a number of type LONG"}));

INSTANTIATE_TEST_SUITE_P(
    ShutdownDrainTimeout, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.storage.shutdown.drain.timeout.ms", "0", ""},
                      numeric_case{"status.storage.shutdown.drain.timeout.ms", "2147483647", ""},
                      // Once accepted, and converted to ns it overflowed: a "drain forever" drained nothing.
                      numeric_case{"status.storage.shutdown.drain.timeout.ms", "2147483648",
                                   "Value must be no more than 2147483647"},
                      numeric_case{"status.storage.shutdown.drain.timeout.ms", "9223372036854775807",
                                   "Value must be no more than 2147483647"},
                      numeric_case{"status.storage.shutdown.drain.timeout.ms", "-1", "Value must be at least 0"},
                      numeric_case{"status.storage.shutdown.drain.timeout.ms", "ten", "Not a number of type LONG"}));

// Below 1 KiB the truncation marker would crowd out the trace it explains.
INSTANTIATE_TEST_SUITE_P(
    TraceMaxBytes, WorkerConfigNumeric,
    ::testing::Values(numeric_case{"status.storage.trace.max.bytes", "1024", ""},
                      numeric_case{"status.storage.trace.max.bytes", "2147483647", ""},
                      numeric_case{"status.storage.trace.max.bytes", "1023", "Value must be at least 1024"},
                      numeric_case{"status.storage.trace.max.bytes", "2147483648",
                                   "Value must be no more than 2147483647"},
                      numeric_case{"status.storage.trace.max.bytes", "64k", "Not a number of type LONG"}));

TEST(WorkerConfigNumericValues, ParsedValuesAreStored) {
  const worker_config config = parse_worker_config(with({
      {"status.storage.partitions", "-1"},
      {"status.storage.replication.factor", "-1"},
      {"status.storage.retry.max.retries", "2147483647"},
      {"status.storage.retry.initial.backoff.ms", "100"},
      {"status.storage.retry.max.backoff.ms", "30000"},
      {"status.storage.retry.backoff.multiplier", "1.5"},
      {"status.storage.retry.jitter.factor", "0.0"},
      {"producer.message.timeout.ms", "30000"},
      {"status.storage.shutdown.drain.timeout.ms", "0"},
      {"status.storage.trace.max.bytes", "4096"},
  }));
  EXPECT_EQ(config.partitions, -1);
  EXPECT_EQ(config.replication_factor, -1);
  EXPECT_EQ(config.retry.max_retries, 2147483647);
  EXPECT_EQ(config.retry.initial_backoff_ms, 100);
  EXPECT_EQ(config.retry.max_backoff_ms, 30000);
  EXPECT_EQ(config.retry.backoff_multiplier, 1.5);
  EXPECT_EQ(config.retry.jitter_factor, 0.0);
  EXPECT_EQ(config.message_timeout_ms, 30000);
  EXPECT_EQ(config.shutdown_drain_timeout_ms, 0);
  EXPECT_EQ(config.trace_max_bytes, 4096);
  EXPECT_TRUE(config.topic_settings.empty());  // status-store's own setting, not a topic config
}

TEST(WorkerConfigNumericValues, TheDrainTimeoutSetInCodeIsBoundedWhereItIsConverted) {
  worker_config config;  // an embedder's, not parsed: any int64 may be in the field
  using std::chrono::milliseconds;
  config.shutdown_drain_timeout_ms = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(config.shutdown_drain_timeout(), milliseconds{2147483647});
  EXPECT_GT(std::chrono::nanoseconds{config.shutdown_drain_timeout() + std::chrono::seconds{5}}.count(), 0);
  config.shutdown_drain_timeout_ms = -5;
  EXPECT_EQ(config.shutdown_drain_timeout(), milliseconds{0});
  config.shutdown_drain_timeout_ms = 1234;
  EXPECT_EQ(config.shutdown_drain_timeout(), milliseconds{1234});
}

TEST(WorkerConfigNumericValues, WhitespaceAroundValuesIsTrimmedLikeKafka) {
  const worker_config config = parse_worker_config(with({
      {"status.storage.retry.max.retries", "  7\t"},
      {"status.storage.retry.jitter.factor", " 0.5 "},
      {"status.storage.partitions", "\t3 "},
  }));
  EXPECT_EQ(config.retry.max_retries, 7);
  EXPECT_EQ(config.retry.jitter_factor, 0.5);
  EXPECT_EQ(config.partitions, 3);
}

TEST(WorkerConfigNumericValues, LargestLongBackoffsAreValidTogether) {
  const worker_config config = parse_worker_config(with({
      {"status.storage.retry.initial.backoff.ms", "9223372036854775807"},
      {"status.storage.retry.max.backoff.ms", "9223372036854775807"},
  }));
  EXPECT_EQ(config.retry.initial_backoff_ms, 9223372036854775807);
}

// ---- the KIP's cross-check ------------------------------------------------------------------------------

TEST(WorkerConfigBackoffCrossCheck, InitialEqualToMaxIsValid) {
  const worker_config config = parse_worker_config(with({
      {"status.storage.retry.initial.backoff.ms", "5000"},
      {"status.storage.retry.max.backoff.ms", "5000"},
  }));
  EXPECT_EQ(config.retry.initial_backoff_ms, 5000);
  EXPECT_EQ(config.retry.max_backoff_ms, 5000);
}

TEST(WorkerConfigBackoffCrossCheck, InitialAboveMaxIsRejected) {
  const auto error = error_for(with({
      {"status.storage.retry.initial.backoff.ms", "5001"},
      {"status.storage.retry.max.backoff.ms", "5000"},
  }));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "status.storage.retry.initial.backoff.ms");
  EXPECT_EQ(error->value(), "5001");
  EXPECT_STREQ(error->what(),
               "Invalid value 5001 for configuration status.storage.retry.initial.backoff.ms: Value must be <= "
               "status.storage.retry.max.backoff.ms=5000");
}

TEST(WorkerConfigBackoffCrossCheck, AppliesToDefaultsToo) {
  // Lowering only max.backoff.ms below the default initial (300) is an error as well.
  auto error = error_for(with({{"status.storage.retry.max.backoff.ms", "299"}}));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "status.storage.retry.initial.backoff.ms");
  EXPECT_EQ(error->value(), "300");
  EXPECT_EQ(error->rule(), "Value must be <= status.storage.retry.max.backoff.ms=299");

  error = error_for(with({{"status.storage.retry.initial.backoff.ms", "10001"}}));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rule(), "Value must be <= status.storage.retry.max.backoff.ms=10000");
}

// ---- topic settings ------------------------------------------------------------------------------------

TEST(WorkerConfigTopicSettings, OtherStatusStorageKeysArePassedToTheTopic) {
  std::vector<std::string> warnings;
  const worker_config config = parse_worker_config(with({
                                                       {"status.storage.min.insync.replicas", " 2 "},
                                                       {"status.storage.segment.bytes", "1048576"},
                                                   }),
                                                   &warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(config.topic_settings,
            (std::map<std::string, std::string>{{"min.insync.replicas", "2"}, {"segment.bytes", "1048576"}}));
}

TEST(WorkerConfigTopicSettings, OwnSettingsAreNotTopicSettings) {
  const worker_config config = parse_worker_config(with({
      {"status.storage.partitions", "3"},
      {"status.storage.replication.factor", "1"},
      {"status.storage.retry.max.retries", "1"},
      {"status.storage.shutdown.drain.timeout.ms", "1"},
  }));
  EXPECT_TRUE(config.topic_settings.empty());
}

TEST(WorkerConfigTopicSettings, CleanupPolicyIsIgnoredWithAWarning) {
  std::vector<std::string> warnings;
  const worker_config config = parse_worker_config(with({{"status.storage.cleanup.policy", "delete"}}), &warnings);
  EXPECT_TRUE(config.topic_settings.empty());
  EXPECT_EQ(warnings, std::vector<std::string>{
                          "Ignoring 'status.storage.cleanup.policy=delete' setting, since compaction is always used"});
}

TEST(WorkerConfigTopicSettings, TyposInOwnNamespacesAreUnknownNotTopicSettings) {
  std::vector<std::string> warnings;
  const worker_config config = parse_worker_config(with({
                                                       {"status.storage.retry.max.retry", "3"},
                                                       {"status.storage.shutdown.timeout.ms", "3"},
                                                       {"status.storage.trace.max.byte", "3"},
                                                       {"status.storage.", "x"},
                                                   }),
                                                   &warnings);
  EXPECT_TRUE(config.topic_settings.empty());
  EXPECT_TRUE(contains(warnings, unknown_key_warning("status.storage.retry.max.retry")));
  EXPECT_TRUE(contains(warnings, unknown_key_warning("status.storage.shutdown.timeout.ms")));
  EXPECT_TRUE(contains(warnings, unknown_key_warning("status.storage.trace.max.byte")));
  EXPECT_TRUE(contains(warnings, unknown_key_warning("status.storage.")));
}

// ---- pass-through settings ------------------------------------------------------------------------------

TEST(WorkerConfigPassThrough, ClientPrefixesAreStripped) {
  std::vector<std::string> warnings;
  const worker_config config = parse_worker_config(with({
                                                       {"producer.linger.ms", "20"},
                                                       {"producer.compression.type", " lz4 "},
                                                       {"consumer.fetch.wait.max.ms", "100"},
                                                       {"admin.request.timeout.ms", "5000"},
                                                   }),
                                                   &warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(config.producer_overrides,
            (std::map<std::string, std::string>{{"compression.type", "lz4"}, {"linger.ms", "20"}}));
  EXPECT_EQ(config.consumer_overrides, (std::map<std::string, std::string>{{"fetch.wait.max.ms", "100"}}));
  EXPECT_EQ(config.admin_overrides, (std::map<std::string, std::string>{{"request.timeout.ms", "5000"}}));
}

TEST(WorkerConfigPassThrough, MessageTimeoutIsAFieldNotAnOverride) {
  const worker_config config = parse_worker_config(with({{"producer.message.timeout.ms", "20000"}}));
  EXPECT_EQ(config.message_timeout_ms, 20000);
  EXPECT_TRUE(config.producer_overrides.empty());
}

TEST(WorkerConfigPassThrough, SecuritySettingsGoToEveryClient) {
  std::vector<std::string> warnings;
  const worker_config config = parse_worker_config(with({
                                                       {"security.protocol", "SASL_SSL"},
                                                       {"sasl.mechanism", "PLAIN"},
                                                       {"sasl.username", "u"},
                                                       {"sasl.password", "p"},
                                                       {"ssl.ca.location", "/ca.pem"},
                                                   }),
                                                   &warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(config.security_settings, (std::map<std::string, std::string>{{"sasl.mechanism", "PLAIN"},
                                                                          {"sasl.password", "p"},
                                                                          {"sasl.username", "u"},
                                                                          {"security.protocol", "SASL_SSL"},
                                                                          {"ssl.ca.location", "/ca.pem"}}));
}

TEST(WorkerConfigPassThrough, BarePrefixesAreUnknown) {
  std::vector<std::string> warnings;
  const worker_config config =
      parse_worker_config(with({{"producer.", "x"}, {"consumer.", "x"}, {"admin.", "x"}}), &warnings);
  EXPECT_TRUE(config.producer_overrides.empty());
  EXPECT_TRUE(config.consumer_overrides.empty());
  EXPECT_TRUE(config.admin_overrides.empty());
  EXPECT_EQ(warnings.size(), 3U);
}

TEST(WorkerConfigPassThrough, NulCharacterInAPassedValueIsRejected) {
  const auto error = error_for(with({{"producer.compression.type", std::string{"lz4\0x", 5}}}));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "producer.compression.type");
  EXPECT_EQ(error->value(), "lz4\\u0000x");
  EXPECT_EQ(error->rule(), "Must not contain a NUL character (\\u0000)");
}

// ---- unknown and ignored keys ----------------------------------------------------------------------------

TEST(WorkerConfigUnknownKeys, AreWarnedNotFatal) {
  std::vector<std::string> warnings;
  const worker_config config =
      parse_worker_config(with({{"bootstrap.server", "typo:9092"}, {"request.timeout.ms", "1"}, {"", "x"}}), &warnings);
  EXPECT_EQ(config.bootstrap_servers, "localhost:9092");
  EXPECT_EQ(warnings, (std::vector<std::string>{unknown_key_warning(""), unknown_key_warning("bootstrap.server"),
                                                unknown_key_warning("request.timeout.ms")}));
}

TEST(WorkerConfigUnknownKeys, CommonConnectWorkerKeysAreIgnoredSilently) {
  std::vector<std::string> warnings;
  parse_worker_config(with({
                          {"group.id", "connect-cluster"},
                          {"key.converter", "org.apache.kafka.connect.json.JsonConverter"},
                          {"value.converter", "org.apache.kafka.connect.json.JsonConverter"},
                          {"key.converter.schemas.enable", "true"},
                          {"value.converter.schemas.enable", "true"},
                          {"header.converter", "x"},
                          {"offset.storage.topic", "connect-offsets"},
                          {"offset.storage.replication.factor", "1"},
                          {"offset.storage.partitions", "25"},
                          {"offset.flush.interval.ms", "10000"},
                          {"config.storage.topic", "connect-configs"},
                          {"config.storage.replication.factor", "1"},
                          {"rest.advertised.host.name", "localhost"},
                          {"rest.port", "8083"},
                          {"listeners", "HTTP://:8083"},
                          {"listeners.https.ssl.key.password", "x"},
                          {"plugin.path", "/usr/share/java"},
                          {"internal.key.converter", "x"},
                      }),
                      &warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
}

TEST(WorkerConfigUnknownKeys, TheRestListenersKeysAreLeftToTheRestParser) {
  // A Connect worker file with its REST settings: admin.listeners is no admin. client override (librdkafka
  // would refuse "listeners" and check-config exit 2), ssl.client.auth no client setting, status.rest.*
  // no status topic setting; parse_rest_settings owns them all.
  std::vector<std::string> warnings;
  const worker_config config =
      parse_worker_config(with({
                              {"bootstrap.servers", "localhost:9092"},
                              {"group.id", "connect-cluster"},
                              {"key.converter", "org.apache.kafka.connect.json.JsonConverter"},
                              {"offset.storage.topic", "connect-offsets"},
                              {"config.storage.topic", "connect-configs"},
                              {"status.storage.replication.factor", "1"},
                              {"listeners", "HTTP://:8083,https://:8443"},
                              {"admin.listeners", "http://localhost:8084"},
                              {"admin.listeners.https.ssl.key.password", "hunter2"},
                              {"listeners.https.ssl.keystore.location", "/etc/kafka/keystore.p12"},
                              {"rest.advertised.host.name", "worker-1"},
                              {"rest.extension.classes",
                               "org.apache.kafka.connect.rest.basic.auth.extension.BasicAuthSecurityRestExtension"},
                              {"access.control.allow.origin", "*"},
                              {"response.http.headers.config", "add X-Frame-Options: DENY"},
                              {"ssl.client.auth", "required"},
                              {"status.rest.jaas.config.file", "/etc/kafka/connect-jaas.conf"},
                              {"plugin.path", "/usr/share/java"},
                          }),
                          &warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_TRUE(config.admin_overrides.empty());
  EXPECT_FALSE(config.security_settings.contains("ssl.client.auth"));
  EXPECT_EQ(config.topic_settings, (std::map<std::string, std::string>{}));
}

// ---- overrides of forced client settings -------------------------------------------------------------------

TEST(WorkerConfigForcedOverrides, ReplacedOverridesAreWarned) {
  const std::vector<std::string> warnings = warnings_for(with({
      {"group.id", "connect-cluster"},
      {"producer.acks", "1"},
      {"producer.enable.idempotence", "true"},
      {"producer.client.id", "mine"},
      {"consumer.group.id", "mine"},
      {"admin.client.id", "mine"},
  }));
  EXPECT_TRUE(contains(warnings, "Ignoring 'producer.acks=1' setting, since status-store always uses acks=all"));
  EXPECT_TRUE(contains(warnings,
                       "Ignoring 'producer.enable.idempotence=true' setting, since status-store always "
                       "uses enable.idempotence=false"));
  EXPECT_TRUE(contains(warnings,
                       "Ignoring 'producer.client.id=mine' setting, since status-store always uses "
                       "client.id=connect-cluster-statuses (derived from group.id and client.id)"));
  EXPECT_TRUE(contains(warnings,
                       "Ignoring 'consumer.group.id=mine' setting, since status-store always uses "
                       "group.id=connect-cluster-statuses (derived from group.id and client.id)"));
  EXPECT_TRUE(contains(warnings,
                       "Ignoring 'admin.client.id=mine' setting, since status-store always uses "
                       "client.id=connect-cluster-shared-admin (derived from group.id and client.id)"));
  EXPECT_EQ(warnings.size(), 5U);
}

TEST(WorkerConfigForcedOverrides, LibrdkafkaAliasesAreWarnedToo) {
  const std::vector<std::string> warnings = warnings_for(with({
      {"producer.message.send.max.retries", "3"},
      {"producer.request.required.acks", "1"},
      {"producer.max.in.flight", "5"},
      {"producer.delivery.timeout.ms", "120000"},
  }));
  EXPECT_TRUE(contains(warnings,
                       "Ignoring 'producer.message.send.max.retries=3' setting, since status-store "
                       "always uses retries=0"));
  EXPECT_TRUE(contains(warnings,
                       "Ignoring 'producer.request.required.acks=1' setting, since status-store always "
                       "uses acks=all"));
  EXPECT_TRUE(contains(warnings,
                       "Ignoring 'producer.max.in.flight=5' setting, since status-store always uses "
                       "max.in.flight.requests.per.connection=1"));
  EXPECT_TRUE(contains(warnings,
                       "Ignoring 'producer.delivery.timeout.ms=120000' setting, since status-store "
                       "always uses message.timeout.ms=15000 (set producer.message.timeout.ms)"));
  EXPECT_EQ(warnings.size(), 4U);
}

TEST(WorkerConfigForcedOverrides, SameValueIsNotWarned) {
  EXPECT_TRUE(warnings_for(with({
                               {"producer.acks", "all"},
                               {"producer.request.required.acks", "-1"},
                               {"producer.retries", "0"},
                               {"producer.enable.idempotence", "FALSE"},
                               {"producer.partitioner", "murmur2_random"},
                               {"consumer.enable.auto.commit", "false"},
                               {"consumer.auto.offset.reset", "earliest"},
                           }))
                  .empty());
}

// ---- secrets ---------------------------------------------------------------------------------------------

TEST(WorkerConfigSecrets, ErrorsMaskSecretValues) {
  const auto error = error_for(with({{"sasl.password", std::string{"hunter2\0", 8} + "x"}}));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "sasl.password");
  EXPECT_EQ(error->value(), "[hidden]");
  EXPECT_EQ(std::string{error->what()}.find("hunter2"), std::string::npos);
  EXPECT_STREQ(error->what(),
               "Invalid value [hidden] for configuration sasl.password: Must not contain a NUL character (\\u0000)");
}

TEST(WorkerConfigSecrets, PrefixedSecretsAreMaskedInErrors) {
  const auto error = error_for(with({{"producer.ssl.key.password", std::string{"s3cret\0", 7} + "x"}}));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->value(), "[hidden]");
}

TEST(WorkerConfigSecrets, WarningsNeverShowSecretValues) {
  const std::vector<std::string> warnings = warnings_for(with({
      {"my.password", "hunter2"},
      {"producer.sasl.mechanism", "PLAIN"},
      {"producer.sasl.jaas.config",
       "org.apache.kafka.common.security.plain.PlainLoginModule required username=u password=hunter2;"},
      {"consumer.ssl.key.password", "hunter2"},
  }));
  for (const std::string& warning : warnings) EXPECT_EQ(warning.find("hunter2"), std::string::npos) << warning;
  EXPECT_TRUE(contains(warnings, unknown_key_warning("my.password")));
}

TEST(WorkerConfigSecrets, SecretsAreKeptUnmaskedForTheClients) {
  const worker_config config = parse_worker_config(with({{"sasl.password", "hunter2"}}));
  EXPECT_EQ(config.security_settings.at("sasl.password"), "hunter2");
}

// ---- topic.tracking.allow.reset ------------------------------------------------------------------------

namespace {
/// Each value is refused for `key` with ConfigDef's BOOLEAN rule.
void expect_refused_as_non_boolean(const char* key, std::initializer_list<const char*> values) {
  for (const char* bad : values) {
    const auto error = error_for(with({{key, bad}}));
    ASSERT_TRUE(error) << bad;
    EXPECT_EQ(error->property(), key);
    EXPECT_EQ(error->rule(), "Expected value to be either true or false");
  }
}
}  // namespace

TEST(WorkerConfigTopicTracking, AllowResetIsABooleanReadAsConfigDefReadsOne) {
  EXPECT_TRUE(parse_worker_config(with({{"topic.tracking.allow.reset", "true"}})).topic_tracking_allow_reset);
  EXPECT_TRUE(parse_worker_config(with({{"topic.tracking.allow.reset", " TRUE "}})).topic_tracking_allow_reset);
  EXPECT_FALSE(parse_worker_config(with({{"topic.tracking.allow.reset", "False"}})).topic_tracking_allow_reset);
  EXPECT_TRUE(warnings_for(with({{"topic.tracking.allow.reset", "true"}})).empty());
  expect_refused_as_non_boolean("topic.tracking.allow.reset", {"yes", "1", "", "tru"});
}

TEST(WorkerConfigTopicTracking, EnableIsABooleanReadAsConfigDefReadsOne) {
  EXPECT_TRUE(parse_worker_config(with({{"topic.tracking.enable", "true"}})).topic_tracking_enable);
  EXPECT_FALSE(parse_worker_config(with({{"topic.tracking.enable", "false"}})).topic_tracking_enable);
  EXPECT_FALSE(parse_worker_config(with({{"topic.tracking.enable", " FALSE "}})).topic_tracking_enable);
  EXPECT_TRUE(warnings_for(with({{"topic.tracking.enable", "false"}})).empty());
  expect_refused_as_non_boolean("topic.tracking.enable", {"no", "0", "", "fals"});
}

TEST(WorkerConfigTopicTracking, EnableAndAllowResetAreIndependent) {
  // Connect keeps both as set; which 403 wins is the service's rule (docs/http-service.md).
  const worker_config config =
      parse_worker_config(with({{"topic.tracking.enable", "false"}, {"topic.tracking.allow.reset", "true"}}));
  EXPECT_FALSE(config.topic_tracking_enable);
  EXPECT_TRUE(config.topic_tracking_allow_reset);
  const auto effective = effective_config(config);
  EXPECT_NE(std::find(effective.begin(), effective.end(),
                      std::pair<std::string, std::string>{"topic.tracking.enable", "false"}),
            effective.end());
}

// ---- effective_config ----------------------------------------------------------------------------------

TEST(EffectiveConfig, ListsEveryDefaultSortedByKey) {
  const auto effective = effective_config(parse_worker_config(with({})));
  const std::vector<std::pair<std::string, std::string>> expected{
      {"bootstrap.servers", "localhost:9092"},
      {"client.id", ""},
      {"group.id", "connect"},
      {"producer.message.timeout.ms", "15000"},
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
