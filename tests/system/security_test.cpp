// status-store on the authenticated listeners of the one-node cluster (scripts/kafka-local.sh):
// SASL_PLAINTEXT with PLAIN and SCRAM-SHA-256, and SSL, configured with a Connect worker's Java
// names (sasl.jaas.config, ssl.truststore.*). Right credentials write and read back; a rejected
// password or certificate is a non-retriable authentication failure: start-up fails at once with
// the reason, and a producer that cannot authenticate fails each update after one attempt. The
// password never appears in a log line, an error message or the Prometheus text.
#include "kafka_cluster.hpp"
#include "stderr_capture.hpp"

#include "app/prometheus_text.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>

using namespace status_store;
using namespace status_store::system_test;
using namespace std::chrono_literals;

namespace {

const char* const how_to_run =
    "run the system tests as: scripts/kafka-local.sh run 1 -- ctest --test-dir build -L '^system$'";

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string jaas(const std::string& module, const std::string& username, const std::string& password) {
  return "org.apache.kafka.common.security." + module + " required username=\"" + username + "\" password=\"" +
         password + "\";";
}

size_t occurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

/// The one-node cluster's SASL and SSL listeners, from the variables `kafka-local.sh run` exports.
struct SecureBroker : single_node_test {
  void SetUp() override {
    single_node_test::SetUp();
    if (HasFatalFailure()) return;
    sasl_bootstrap = env_or_empty("STATUS_STORE_SASL_BOOTSTRAP");
    ssl_bootstrap = env_or_empty("STATUS_STORE_SSL_BOOTSTRAP");
    ssl_ca = env_or_empty("STATUS_STORE_SSL_CA");
    username = env_or_empty("STATUS_STORE_SASL_USERNAME");
    password = env_or_empty("STATUS_STORE_SASL_PASSWORD");
    for (const auto& [name, value] : {std::pair{"STATUS_STORE_SASL_BOOTSTRAP", sasl_bootstrap},
                                      {"STATUS_STORE_SSL_BOOTSTRAP", ssl_bootstrap},
                                      {"STATUS_STORE_SSL_CA", ssl_ca},
                                      {"STATUS_STORE_SASL_USERNAME", username},
                                      {"STATUS_STORE_SASL_PASSWORD", password}}) {
      ASSERT_FALSE(value.empty()) << name << " is not set: " << how_to_run;
    }
    // A password short enough to turn up by chance would make the greps below meaningless.
    ASSERT_GE(password.size(), 16u);
    wrong_password = "wrong-" + password.substr(0, 8) + "-x";
  }

  /// A worker on the SASL listener, as a Connect worker file would say it.
  worker_config sasl_config(const std::string& topic, const std::string& mechanism, const std::string& module,
                            const std::string& pass, properties extra = {}) const {
    extra.emplace("bootstrap.servers", sasl_bootstrap);
    extra.emplace("security.protocol", "SASL_PLAINTEXT");
    extra.emplace("sasl.mechanism", mechanism);
    extra.emplace("sasl.jaas.config", jaas(module, username, pass));
    return config(topic, extra);
  }

  /// Writes a few statuses, then reads them back through a second store (its own replay).
  void expect_round_trip(const worker_config& config) {
    {
      auto writer = open_store(config, store_options{.jitter_seed = 1});
      for (int i = 0; i < 20; ++i) {
        writer->put(connector_status{"secure-" + std::to_string(i), {status_state::running, {}, "w:8083", i}});
      }
      ASSERT_TRUE(writer->flush(30s));
      const auto c = writer->metrics().counters;
      EXPECT_EQ(c.success, 20u);
      EXPECT_EQ(c.failure, 0u);
      EXPECT_EQ(c.retry, 0u);
      EXPECT_EQ(c.authentication_failure, 0u);
      const std::string prometheus = prometheus_text(writer->metrics());
      EXPECT_EQ(prometheus.find(password), std::string::npos) << "the password in the Prometheus text";
      writer->stop();
    }
    auto reader = open_store(config);
    for (int i = 0; i < 20; ++i) {
      const auto status = reader->get("secure-" + std::to_string(i));
      ASSERT_TRUE(status) << "secure-" << i << " was not read back";
      EXPECT_EQ(status->value.generation, i);
    }
    reader->stop();
  }

  std::string sasl_bootstrap, ssl_bootstrap, ssl_ca, username, password, wrong_password;
};

}  // namespace

TEST_F(SecureBroker, SaslPlainWithTheRightPasswordWritesAndReadsBackAndLogsNoSecret) {
  stderr_capture log;
  expect_round_trip(sasl_config(unique_topic("sasl-plain"), "PLAIN", "plain.PlainLoginModule", password));
  const std::string captured = log.text();
  EXPECT_EQ(captured.find(password), std::string::npos) << "the password is in the log";
  EXPECT_EQ(captured.find("_AUTHENTICATION"), std::string::npos) << "an authentication error with the right password";
}

TEST_F(SecureBroker, TlsWithAPemTruststoreWritesAndReadsBack) {
  expect_round_trip(config(unique_topic("tls"), {{"bootstrap.servers", ssl_bootstrap},
                                                 {"security.protocol", "SSL"},
                                                 {"ssl.truststore.type", "PEM"},
                                                 {"ssl.truststore.location", ssl_ca}}));
}

TEST_F(SecureBroker, AWrongPasswordFailsStartUpAtOnceAsAnAuthenticationErrorLoggedOnce) {
  stderr_capture log;
  // A start-up deadline longer than the test's ctest timeout (300 s): only failing on the
  // authentication error itself, not on the deadline, lets this test pass.
  const auto config = sasl_config(unique_topic("sasl-wrong"), "PLAIN", "plain.PlainLoginModule", wrong_password,
                                  {{"status.storage.startup.timeout.ms", "600000"}});
  std::string error;
  try {
    open_store(config);
  } catch (const std::exception& e) {
    error = e.what();
  }
  const std::string captured = log.text();
  ASSERT_FALSE(error.empty()) << "the store started with a wrong password";
  EXPECT_NE(error.find("authentication with the broker failed (_AUTHENTICATION)"), std::string::npos) << error;
  EXPECT_NE(error.find("Invalid username or password"), std::string::npos) << error;
  EXPECT_EQ(error.find(wrong_password), std::string::npos) << error;
  EXPECT_EQ(captured.find(wrong_password), std::string::npos) << "the password is in the log";
  EXPECT_EQ(occurrences(captured, "the broker refused this client's credentials"), 1u) << captured;
}

TEST_F(SecureBroker, AProducerThatCannotAuthenticateFailsEachUpdateOnceWithoutRetrying) {
  // Start-up authenticates (admin and reader use the right password); only the status producer's
  // override is wrong, as after a password change that reached one client only.
  const auto config = sasl_config(unique_topic("sasl-producer"), "PLAIN", "plain.PlainLoginModule", password,
                                  {{"producer.sasl.jaas.config", jaas("plain.PlainLoginModule", username, wrong_password)},
                                   {"producer.message.timeout.ms", "3000"},
                                   {"status.storage.retry.max.retries", "5"},
                                   {"status.storage.retry.initial.backoff.ms", "100"}});
  stderr_capture log;
  auto s = open_store(config, store_options{.jitter_seed = 1});
  for (int i = 0; i < 10; ++i) s->put(connector_status{"auth-" + std::to_string(i), {status_state::running, {}, "w:8083", 1}});
  // Resolved (failed) within one attempt each: a 3 s message timeout, no retries.
  ASSERT_TRUE(s->flush(60s)) << "updates still pending";
  for (int i = 0; i < 5; ++i) s->put(connector_status{"auth-late-" + std::to_string(i), {status_state::running, {}, "w:8083", 1}});
  ASSERT_TRUE(s->flush(60s)) << "updates still pending";
  const auto c = s->metrics().counters;
  const std::string prometheus = prometheus_text(s->metrics());
  s->stop();
  const std::string captured = log.text();
  EXPECT_EQ(c.accepted, 15u);
  EXPECT_EQ(c.failure, 15u) << "every update fails";
  EXPECT_EQ(c.success, 0u);
  EXPECT_EQ(c.authentication_failure, 15u) << "counted apart as authentication failures";
  EXPECT_EQ(c.retry, 0u) << "an authentication failure is not retried";
  EXPECT_NE(prometheus.find("status_update_failure_total 15"), std::string::npos) << prometheus;
  EXPECT_NE(prometheus.find("status_update_authentication_failure_total 15"), std::string::npos) << prometheus;
  EXPECT_NE(captured.find("_AUTHENTICATION"), std::string::npos) << "the failures name the authentication error";
  EXPECT_EQ(occurrences(captured, "status producer: "), 1u) << "logged once:\n" << captured;
  EXPECT_EQ(captured.find(wrong_password), std::string::npos) << "the password is in the log";
  EXPECT_EQ(captured.find(password), std::string::npos) << "the password is in the log";
  EXPECT_EQ(prometheus.find(password), std::string::npos);
}

TEST_F(SecureBroker, TlsWithoutTheBrokersCaFailsStartUpAtOnceNamingTheCertificate) {
  // The system's CAs do not include the throwaway CA that signed the broker's certificate.
  const auto config = this->config(unique_topic("tls-untrusted"), {{"bootstrap.servers", ssl_bootstrap},
                                                                   {"security.protocol", "SSL"},
                                                                   {"ssl.ca.location", "/etc/ssl/certs/ca-certificates.crt"},
                                                                   {"status.storage.startup.timeout.ms", "600000"}});
  std::string error;
  try {
    open_store(config);
  } catch (const std::exception& e) {
    error = e.what();
  }
  ASSERT_FALSE(error.empty()) << "the store trusted a certificate from an unknown CA";
  EXPECT_NE(error.find("(_SSL)"), std::string::npos) << error;
  EXPECT_NE(error.find("certificate verify failed"), std::string::npos) << error;
}

// librdkafka 2.0.2's SCRAM client repeats the client nonce in its final message
// (confluentinc/librdkafka#4895, fixed in 2.6.1); Kafka >= 4.0 compares the nonce exactly since its
// CVE-2024-56128 fix and refuses the login. The SCRAM credential itself is valid: a Java client logs
// in with it (tests/system/scram_login_test.sh). This pins what a worker on Debian 12's librdkafka
// sees — a fast, named authentication failure, not a hang — and fails once librdkafka can log in,
// so the limitation is dropped from the README then.
TEST_F(SecureBroker, ScramSha256IsRefusedByKafka4WithLibrdkafka202AsAFastAuthenticationError) {
  const auto config = sasl_config(unique_topic("sasl-scram"), "SCRAM-SHA-256", "scram.ScramLoginModule", password,
                                  {{"status.storage.startup.timeout.ms", "600000"}});
  std::string error;
  try {
    open_store(config)->stop();
  } catch (const std::exception& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("authentication with the broker failed (_AUTHENTICATION)"), std::string::npos)
      << (error.empty() ? "SCRAM-SHA-256 worked: librdkafka was upgraded; turn this into a round-trip test and "
                          "drop the limitation from the README"
                        : error);
  EXPECT_NE(error.find("SCRAM-SHA-256"), std::string::npos) << error;
  EXPECT_EQ(error.find(password), std::string::npos) << error;
}
