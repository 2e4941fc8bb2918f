#include "secure_broker.hpp"

#include "stderr_capture.hpp"

#include "app/prometheus_text.hpp"

#include <librdkafka/rdkafka.h>

#include <cstdio>
#include <cstdlib>

namespace status_store::system_test {

using namespace std::chrono_literals;

namespace {

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

std::string broker_version() { return env_or_empty("KAFKA_VERSION"); }

bool broker_checks_scram_nonce(const std::string& version) {
  int major = 0, minor = 0, patch = 0;
  if (std::sscanf(version.c_str(), "%d.%d.%d", &major, &minor, &patch) < 2) return true;  // unknown: assume fixed
  if (major != 3) return major > 3;
  if (minor == 7) return patch >= 2;
  if (minor == 8) return patch >= 1;
  return minor >= 9;
}

bool librdkafka_logs_in_with_scram_to(const std::string& kafka_version) {
  return rd_kafka_version() >= 0x020601ff || !broker_checks_scram_nonce(kafka_version);
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

void secure_broker_test::SetUp() {
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
    ASSERT_FALSE(value.empty()) << name << " is not set: run the tests inside `scripts/kafka-local.sh run 1 -- ...`";
  }
  // A password short enough to turn up by chance would make the greps for it meaningless.
  ASSERT_GE(password.size(), 16u);
  wrong_password = "wrong-" + password.substr(0, 8) + "-x";
}

worker_config secure_broker_test::sasl_config(const std::string& topic, const std::string& mechanism,
                                              const std::string& module, const std::string& pass,
                                              properties extra) const {
  extra.emplace("bootstrap.servers", sasl_bootstrap);
  extra.emplace("security.protocol", "SASL_PLAINTEXT");
  extra.emplace("sasl.mechanism", mechanism);
  extra.emplace("sasl.jaas.config", jaas(module, username, pass));
  return config(topic, extra);
}

void secure_broker_test::expect_round_trip(const worker_config& config) {
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

std::string secure_broker_test::start_up_error(const worker_config& config) {
  try {
    open_store(config)->stop();
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

void secure_broker_test::expect_start_up_refused_once(const worker_config& config, const std::string& broker_reason) {
  stderr_capture log;
  const std::string error = start_up_error(config);
  const std::string captured = log.text();
  ASSERT_FALSE(error.empty()) << "the store started with a wrong password";
  EXPECT_NE(error.find("authentication with the broker failed (_AUTHENTICATION)"), std::string::npos) << error;
  EXPECT_NE(error.find(broker_reason), std::string::npos) << error;
  EXPECT_EQ(error.find(wrong_password), std::string::npos) << error;
  EXPECT_EQ(captured.find(wrong_password), std::string::npos) << "the password is in the log";
  EXPECT_EQ(captured.find(password), std::string::npos) << "the password is in the log";
  EXPECT_EQ(occurrences(captured, "the broker refused this client's credentials"), 1u) << captured;
}

void secure_broker_test::expect_each_update_fails_once_without_retrying(const worker_config& config) {
  stderr_capture log;
  auto s = open_store(config, store_options{.jitter_seed = 1});
  for (int i = 0; i < 10; ++i)
    s->put(connector_status{"auth-" + std::to_string(i), {status_state::running, {}, "w:8083", 1}});
  // Resolved (failed) within one attempt each: a 3 s message timeout, no retries.
  ASSERT_TRUE(s->flush(60s)) << "updates still pending";
  for (int i = 0; i < 5; ++i)
    s->put(connector_status{"auth-late-" + std::to_string(i), {status_state::running, {}, "w:8083", 1}});
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

}  // namespace status_store::system_test
