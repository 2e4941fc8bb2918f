// Overrides of the client settings status-store forces, and secrets never shown in errors or
// warnings.
#include "worker_config_test_support.hpp"

namespace status_store {
namespace {

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

}  // namespace
}  // namespace status_store
