// config_error, the defaults, bootstrap.servers, group.id, client.id, status.storage.topic and the
// topic.tracking booleans, with the exact Kafka/Connect wording of the errors.
#include "worker_config_test_support.hpp"

namespace status_store {
namespace {

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
    const auto error = error_for({{topic_setting, blank}});
    ASSERT_TRUE(error);
    EXPECT_EQ(error->what(), missing_topic);
    EXPECT_EQ(error->property(), "status.storage.topic");
  }
}

TEST(WorkerConfigTopic, TopicIsTrimmed) {
  EXPECT_EQ(parse_worker_config({{topic_setting, "  connect-status \t"}}).status_topic, "connect-status");
}

TEST(WorkerConfigTopic, LegalTopicNames) {
  const std::vector<std::string> names{"a", "connect-status", "Connect_Status.v2", std::string(249, 'x')};
  for (const std::string& name : names) {
    EXPECT_EQ(parse_worker_config({{topic_setting, name}}).status_topic, name);
  }
}

TEST(WorkerConfigTopic, IllegalTopicNamesUseKafkasRules) {
  auto error = error_for({{topic_setting, "."}});
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rule(), "Topic name cannot be \".\" or \"..\"");
  error = error_for({{topic_setting, ".."}});
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rule(), "Topic name cannot be \".\" or \"..\"");

  const std::string too_long(250, 'x');
  error = error_for({{topic_setting, too_long}});
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rule(), "Topic name is illegal, it can't be longer than 249 characters, topic name: " + too_long);

  error = error_for({{topic_setting, "status topic"}});
  ASSERT_TRUE(error);
  EXPECT_STREQ(error->what(),
               "Invalid value status topic for configuration status.storage.topic: Topic name \"status topic\" is "
               "illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'");
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

}  // namespace
}  // namespace status_store
