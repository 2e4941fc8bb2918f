// A Connect worker's security settings reach librdkafka under librdkafka's names, or stop start-up
// with an error naming the property and the rule (check-config exits 2).
#include "config/security_settings.hpp"
#include "config/client_settings.hpp"
#include "config/config_error.hpp"
#include "config/worker_config.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

using namespace status_store;

namespace {

const std::string plain_jaas =
    "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"alice\" password=\"alice-secret\";";
const std::string scram_jaas =
    "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"alice\" password=\"alice-secret\";";

properties worker(std::initializer_list<std::pair<const std::string, std::string>> extra) {
  properties props{{"status.storage.topic", "connect-status"}};
  for (const auto& [key, value] : extra) props.insert_or_assign(key, value);
  return props;
}

std::optional<config_error> parse_error_for(const properties& props) {
  try {
    parse_worker_config(props);
  } catch (const config_error& error) {
    return error;
  }
  return std::nullopt;
}

std::optional<std::string> setting(const kafka_settings& settings, const std::string& key) {
  for (const auto& [name, value] : settings) {
    if (name == key) return value;
  }
  return std::nullopt;
}

}  // namespace

TEST(SecuritySettings, PlainJaasConfigBecomesUsernameAndPasswordForEveryClient) {
  const worker_config config = parse_worker_config(
      worker({{"security.protocol", "SASL_PLAINTEXT"}, {"sasl.mechanism", "PLAIN"}, {"sasl.jaas.config", plain_jaas}}));
  EXPECT_EQ(config.security_settings, (settings_map{{"sasl.mechanism", "PLAIN"},
                                                    {"sasl.password", "alice-secret"},
                                                    {"sasl.username", "alice"},
                                                    {"security.protocol", "SASL_PLAINTEXT"}}));
  for (const auto& settings : {producer_settings(config), consumer_settings(config), admin_settings(config)}) {
    EXPECT_EQ(setting(settings, "sasl.username"), "alice");
    EXPECT_EQ(setting(settings, "sasl.password"), "alice-secret");
    EXPECT_EQ(setting(settings, "sasl.mechanism"), "PLAIN");
    EXPECT_FALSE(setting(settings, "sasl.jaas.config"));
  }
}

TEST(SecuritySettings, ScramJaasConfigWithScramSha256) {
  const worker_config config = parse_worker_config(worker(
      {{"security.protocol", "SASL_SSL"}, {"sasl.mechanism", "SCRAM-SHA-256"}, {"sasl.jaas.config", scram_jaas}}));
  EXPECT_EQ(config.security_settings.at("sasl.username"), "alice");
  EXPECT_EQ(config.security_settings.at("sasl.password"), "alice-secret");
  EXPECT_EQ(config.security_settings.at("sasl.mechanism"), "SCRAM-SHA-256");
}

TEST(SecuritySettings, APrefixedJaasConfigUsesTheCommonMechanismAndOverridesTheCommonCredentials) {
  const worker_config config = parse_worker_config(worker({{"sasl.mechanism", "PLAIN"},
                                                           {"sasl.jaas.config", plain_jaas},
                                                           {"producer.sasl.jaas.config",
                                                            "org.apache.kafka.common.security.plain.PlainLoginModule "
                                                            "required username=writer password=w;"}}));
  EXPECT_EQ(config.producer_overrides, (settings_map{{"sasl.password", "w"}, {"sasl.username", "writer"}}));
  const auto producer = producer_settings(config);
  EXPECT_EQ(setting(producer, "sasl.username"), "writer");
  EXPECT_EQ(setting(producer, "sasl.password"), "w");
  EXPECT_EQ(setting(consumer_settings(config), "sasl.username"), "alice");
}

TEST(SecuritySettings, LibrdkafkaNamesPassUnchanged) {
  const worker_config config = parse_worker_config(worker({{"security.protocol", "sasl_ssl"},
                                                           {"sasl.mechanisms", "SCRAM-SHA-512"},
                                                           {"sasl.username", "u"},
                                                           {"sasl.password", "p"},
                                                           {"ssl.ca.location", "/etc/ca.pem"},
                                                           {"ssl.keystore.location", "/etc/client.p12"},
                                                           {"ssl.keystore.password", "k"}}));
  EXPECT_EQ(config.security_settings.size(), 7u);
  EXPECT_EQ(config.security_settings.at("ssl.ca.location"), "/etc/ca.pem");
}

TEST(SecuritySettings, PemTruststoreBecomesCaLocationAndInlineCertificatesCaPem) {
  const worker_config file = parse_worker_config(worker({{"security.protocol", "SSL"},
                                                         {"ssl.truststore.type", "PEM"},
                                                         {"ssl.truststore.location", "/etc/kafka/ca.pem"}}));
  EXPECT_EQ(file.security_settings,
            (settings_map{{"security.protocol", "SSL"}, {"ssl.ca.location", "/etc/kafka/ca.pem"}}));
  const worker_config inline_pem = parse_worker_config(
      worker({{"ssl.truststore.type", "PEM"}, {"ssl.truststore.certificates", "-----BEGIN CERTIFICATE-----..."}}));
  EXPECT_EQ(inline_pem.security_settings, (settings_map{{"ssl.ca.pem", "-----BEGIN CERTIFICATE-----..."}}));
}

TEST(SecuritySettings, JksAndPkcs12TruststoresAreRefusedSayingWhatToUse) {
  for (const auto& [type, conversion] : {std::pair<std::string, std::string>{"", "keytool -exportcert -rfc"},
                                         {"JKS", "keytool -exportcert -rfc"},
                                         {"PKCS12", "openssl pkcs12 -in FILE -nokeys"}}) {
    properties props =
        worker({{"ssl.truststore.location", "/etc/kafka/truststore.jks"}, {"ssl.truststore.password", "changeit"}});
    if (!type.empty()) props["ssl.truststore.type"] = type;
    const auto error = parse_error_for(props);
    ASSERT_TRUE(error) << type;
    EXPECT_EQ(error->property(), "ssl.truststore.location");
    EXPECT_EQ(error->value(), "/etc/kafka/truststore.jks");
    const std::string what = error->what();
    EXPECT_NE(what.find("status-store's Kafka client cannot read a " + (type.empty() ? std::string{"JKS"} : type) +
                        " truststore"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find(conversion), std::string::npos) << what;
    EXPECT_NE(what.find("ssl.truststore.type=PEM"), std::string::npos) << what;
    EXPECT_NE(what.find("ssl.ca.location"), std::string::npos) << what;
    EXPECT_EQ(what.find("changeit"), std::string::npos) << what;
  }
}

TEST(SecuritySettings, KeystoreTypes) {
  const worker_config pkcs12 = parse_worker_config(worker({{"ssl.keystore.type", "PKCS12"},
                                                           {"ssl.keystore.location", "/c.p12"},
                                                           {"ssl.keystore.password", "k"},
                                                           {"ssl.key.password", "kk"}}));
  EXPECT_EQ(
      pkcs12.security_settings,
      (settings_map{{"ssl.key.password", "kk"}, {"ssl.keystore.location", "/c.p12"}, {"ssl.keystore.password", "k"}}));
  const worker_config pem =
      parse_worker_config(worker({{"ssl.keystore.certificate.chain", "CERT"}, {"ssl.keystore.key", "KEY"}}));
  EXPECT_EQ(pem.security_settings, (settings_map{{"ssl.certificate.pem", "CERT"}, {"ssl.key.pem", "KEY"}}));
  for (const char* type : {"JKS", "PEM", "BKS"}) {
    const auto error = parse_error_for(worker({{"ssl.keystore.type", type}, {"ssl.keystore.location", "/c"}}));
    ASSERT_TRUE(error) << type;
    EXPECT_EQ(error->property(), "ssl.keystore.type") << type;
  }
}

TEST(SecuritySettings, EndpointIdentification) {
  EXPECT_EQ(parse_worker_config(worker({{"ssl.endpoint.identification.algorithm", ""}}))
                .security_settings.at("ssl.endpoint.identification.algorithm"),
            "none");
  EXPECT_EQ(parse_worker_config(worker({{"ssl.endpoint.identification.algorithm", "HTTPS"}}))
                .security_settings.at("ssl.endpoint.identification.algorithm"),
            "https");
  const auto error = parse_error_for(worker({{"ssl.endpoint.identification.algorithm", "ldaps"}}));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "ssl.endpoint.identification.algorithm");
}

TEST(SecuritySettings, InvalidSettingsNameThePropertyTheValueAndTheRule) {
  const struct {
    properties props;
    std::string message;
  } cases[] = {
      {worker({{"security.protocol", "TLS"}}),
       "Invalid value TLS for configuration security.protocol: Must be one of PLAINTEXT, SSL, SASL_PLAINTEXT, "
       "SASL_SSL"},
      {worker({{"sasl.mechanism", "SCRAM-SHA-1"}}),
       "Invalid value SCRAM-SHA-1 for configuration sasl.mechanism: Must be one of GSSAPI, PLAIN, SCRAM-SHA-256, "
       "SCRAM-SHA-512, OAUTHBEARER (what status-store's Kafka client implements)"},
      {worker({{"sasl.jaas.config", plain_jaas}}),
       "sasl.mechanism must be set (PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512) when sasl.jaas.config uses "
       "PlainLoginModule: the default, GSSAPI, ignores a username and password"},
      {worker({{"sasl.mechanism", "GSSAPI"}, {"sasl.jaas.config", scram_jaas}}),
       "Invalid value [hidden] for configuration sasl.jaas.config: ScramLoginModule gives a username and password, "
       "which sasl.mechanism=GSSAPI does not use (use PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512)"},
      {worker({{"sasl.mechanism", "PLAIN"}, {"sasl.jaas.config", plain_jaas}, {"sasl.password", "x"}}),
       "Invalid value [hidden] for configuration sasl.jaas.config: Set either sasl.jaas.config or "
       "sasl.username/sasl.password, not both (they would compete for the same client settings)"},
      {worker({{"sasl.mechanism", "PLAIN"}, {"producer.sasl.jaas.config", "alice-secret"}}),
       "Invalid value [hidden] for configuration producer.sasl.jaas.config: Login module control flag not "
       "specified in JAAS config"},
      {worker({{"sasl.login.callback.handler.class", "com.example.Handler"}}),
       "Invalid value com.example.Handler for configuration sasl.login.callback.handler.class: Names a Java class, "
       "which status-store's Kafka client cannot load; remove it (status-store supports SASL PLAIN/SCRAM through "
       "sasl.jaas.config or "
       "sasl.username/sasl.password)"},
      {worker({{"ssl.truststore.type", "PEM"}, {"ssl.truststore.location", "/a.pem"}, {"ssl.ca.location", "/b.pem"}}),
       "Invalid value /a.pem for configuration ssl.truststore.location: Set either ssl.truststore.* or the client's "
       "own "
       "ssl.ca.location/ssl.ca.pem, not both"},
      {worker({{"ssl.truststore.type", "P12"}}),
       "Invalid value P12 for configuration ssl.truststore.type: Must be one of JKS, PKCS12, PEM"},
  };
  for (const auto& c : cases) {
    const auto error = parse_error_for(c.props);
    ASSERT_TRUE(error) << c.message;
    EXPECT_EQ(std::string{error->what()}, c.message);
    EXPECT_EQ(std::string{error->what()}.find("alice-secret"), std::string::npos);
  }
}

TEST(SecuritySettings, JvmOnlyTuningIsDroppedWithAWarning) {
  std::vector<std::string> warnings;
  const worker_config config = parse_worker_config(worker({{"ssl.protocol", "TLSv1.3"},
                                                           {"ssl.enabled.protocols", "TLSv1.2,TLSv1.3"},
                                                           {"consumer.ssl.trustmanager.algorithm", "PKIX"},
                                                           {"sasl.login.refresh.window.factor", "0.8"}}),
                                                   &warnings);
  EXPECT_TRUE(config.security_settings.empty());
  EXPECT_TRUE(config.consumer_overrides.empty());
  EXPECT_EQ(warnings.size(), 4u);
  EXPECT_NE(std::find(warnings.begin(), warnings.end(),
                      "Ignoring 'consumer.ssl.trustmanager.algorithm=PKIX': it tunes Java's TLS stack or login and "
                      "has no equivalent in status-store's Kafka client"),
            warnings.end());
}

TEST(SecuritySettings, TheEffectiveConfigurationShowsLibrdkafkaNamesWithSecretsHidden) {
  const auto effective =
      effective_config(parse_worker_config(worker({{"sasl.mechanism", "PLAIN"}, {"sasl.jaas.config", plain_jaas}})));
  const auto has = [&](const std::string& key, const std::string& value) {
    return std::find(effective.begin(), effective.end(), std::pair{key, value}) != effective.end();
  };
  EXPECT_TRUE(has("sasl.username", "alice"));
  EXPECT_TRUE(has("sasl.password", "[hidden]"));
  for (const auto& [key, value] : effective) EXPECT_EQ(value.find("alice-secret"), std::string::npos) << key;
}
