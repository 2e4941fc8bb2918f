// Keys that are not scalar settings: status.storage.<topic-config>, the client pass-through
// prefixes, security settings, and unknown or ignored keys.
#include "worker_config_test_support.hpp"

namespace status_store {
namespace {

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

}  // namespace
}  // namespace status_store
