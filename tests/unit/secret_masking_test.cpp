// Which property names hold secrets, and how their values print.
#include "config/secret_masking.hpp"

#include <gtest/gtest.h>

namespace status_store {
namespace {

TEST(SecretMasking, NamesContainingPasswordOrSecretAreSecret) {
  for (const char* key : {"sasl.password", "ssl.truststore.password", "ssl.keystore.password", "password",
                          "sasl.oauthbearer.client.secret", "my.secret.thing", "producer.sasl.password",
                          "consumer.ssl.truststore.password", "status.storage.password"}) {
    EXPECT_TRUE(is_secret_property(key)) << key;
  }
}

TEST(SecretMasking, JaasConfigIsSecretWithOrWithoutPrefix) {
  EXPECT_TRUE(is_secret_property("sasl.jaas.config"));
  EXPECT_TRUE(is_secret_property("producer.sasl.jaas.config"));
  EXPECT_TRUE(is_secret_property("consumer.sasl.jaas.config"));
  EXPECT_TRUE(is_secret_property("admin.sasl.jaas.config"));
}

TEST(SecretMasking, SslKeyPrefixIsSecretAfterStrippingAClientPrefix) {
  for (const char* key : {"ssl.key.password", "ssl.key.pem", "ssl.key.location", "ssl.keystore.location",
                          "producer.ssl.key.pem", "consumer.ssl.keystore.key", "admin.ssl.key.pem"}) {
    EXPECT_TRUE(is_secret_property(key)) << key;
  }
}

TEST(SecretMasking, MatchingIsCaseInsensitive) {
  EXPECT_TRUE(is_secret_property("SASL.PASSWORD"));
  EXPECT_TRUE(is_secret_property("Sasl.Jaas.Config"));
  EXPECT_TRUE(is_secret_property("Producer.SSL.Key.Pem"));
}

TEST(SecretMasking, OrdinaryNamesAreNotSecret) {
  for (const char* key : {"bootstrap.servers", "sasl.username", "sasl.mechanism", "security.protocol",
                          "ssl.ca.location", "ssl.certificate.pem", "ssl.endpoint.identification.algorithm",
                          "producer.linger.ms", "status.storage.topic", "client.id", "",
                          // "ssl.key." counts only at the start of the unprefixed name.
                          "other.ssl.key.thing", "status.storage.ssl.key.thing"}) {
    EXPECT_FALSE(is_secret_property(key)) << key;
  }
}

TEST(SecretMasking, ALastSegmentNamingASecretIsSecretWhateverThePrefix) {
  for (const char* key :
       {"listeners.https.ssl.keystore.key", "admin.listeners.https.ssl.key.password", "producer.producer.ssl.key.pem",
        "sasl.oauthbearer.assertion.private.key.passphrase", "sasl.oauthbearer.assertion.private.key.pem",
        "ssl.keystore.key", "some.api.token",
        // "key" as the last segment: since this rule, also under status.storage.
        "status.storage.ssl.key", "listeners.https.ssl.keystore.password", "listeners.https.ssl.truststore.password",
        "admin.listeners.https.ssl.keystore.key", "listeners.https.sasl.jaas.config", "x.jaas.config"}) {
    EXPECT_TRUE(is_secret_property(key)) << key;
  }
}

TEST(SecretMasking, ListenerPrefixesAreStrippedLikeClientPrefixes) {
  EXPECT_TRUE(is_secret_property("listeners.https.ssl.keystore.location"));
  EXPECT_TRUE(is_secret_property("admin.listeners.https.ssl.key.location"));
  EXPECT_FALSE(is_secret_property("listeners.https.ssl.keystore.type"));
  EXPECT_FALSE(is_secret_property("listeners.https.ssl.client.auth"));
}

TEST(SecretMasking, CertificatesAreNotSecret) {
  for (const char* key :
       {"ssl.keystore.certificate.chain", "listeners.https.ssl.keystore.certificate.chain",
        "ssl.truststore.certificates", "listeners.https.ssl.truststore.certificates", "ssl.certificate.pem",
        "producer.ssl.ca.pem", "ssl.keystore.type", "listeners", "rest.advertised.host.name", "key.converter",
        // the name of a JAAS file, not its text
        "status.rest.jaas.config.file"}) {
    EXPECT_FALSE(is_secret_property(key)) << key;
  }
}

TEST(SecretMasking, MaskIfSecretHidesOnlySecrets) {
  EXPECT_EQ(mask_if_secret("sasl.password", "hunter2"), "[hidden]");
  EXPECT_EQ(mask_if_secret("sasl.password", ""), "[hidden]");
  EXPECT_EQ(mask_if_secret("sasl.username", "alice"), "alice");
  EXPECT_EQ(masked_value, "[hidden]");
}

}  // namespace
}  // namespace status_store
