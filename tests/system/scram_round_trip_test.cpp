// SCRAM-SHA-256 end to end (label system-scram): status-store logs in with the right credential,
// writes and reads back; a wrong password fails start-up at once, and a status producer with a wrong
// password fails each update after one attempt, as with PLAIN. These need a broker from before
// Kafka's CVE-2024-56128 fix: since then (3.7.2, 3.8.1, 3.9.0, every 4.x) the broker refuses
// librdkafka 2.0.2's SCRAM final message even with the right password (security_test.cpp pins that
// on Kafka 4). scripts/test.sh therefore runs this label on Kafka 3.8.0, the last 3.8 release
// without the check, on 127.0.0.1 for the few seconds the tests take:
//   KAFKA_VERSION=3.8.0 scripts/kafka-local.sh run 1 -- ctest --test-dir build -L '^system-scram$'
#include "secure_broker.hpp"
#include "stderr_capture.hpp"

#include <gtest/gtest.h>

using namespace status_store;
using namespace status_store::system_test;

namespace {

struct ScramBroker : secure_broker_test {
  void SetUp() override {
    secure_broker_test::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_FALSE(broker_checks_scram_nonce(broker_version()))
        << "Kafka '" << broker_version() << "' refuses librdkafka 2.0.2's SCRAM login whatever the password "
        << "(CVE-2024-56128 fix); run this label on a broker from before it: KAFKA_VERSION=3.8.0 "
        << "scripts/kafka-local.sh run 1 -- ctest --test-dir build -L '^system-scram$'";
  }

  worker_config scram_config(const std::string& stem, const std::string& pass, properties extra = {}) const {
    return sasl_config(unique_topic(stem), "SCRAM-SHA-256", "scram.ScramLoginModule", pass, std::move(extra));
  }
};

}  // namespace

TEST_F(ScramBroker, ScramSha256WithTheRightPasswordWritesAndReadsBackAndLogsNoSecret) {
  stderr_capture log;
  expect_round_trip(scram_config("scram-right", password));
  const std::string captured = log.text();
  EXPECT_EQ(captured.find(password), std::string::npos) << "the password is in the log";
  EXPECT_EQ(captured.find("_AUTHENTICATION"), std::string::npos) << "an authentication error with the right password";
}

TEST_F(ScramBroker, ScramSha256WithAWrongPasswordFailsStartUpAtOnceAsAnAuthenticationErrorLoggedOnce) {
  stderr_capture log;
  // A start-up deadline longer than the test's ctest timeout: only the authentication error itself
  // can end the start-up in time.
  const std::string error = start_up_error(scram_config("scram-wrong", wrong_password,
                                                        {{"status.storage.startup.timeout.ms", "600000"}}));
  const std::string captured = log.text();
  ASSERT_FALSE(error.empty()) << "the store started with a wrong password";
  EXPECT_NE(error.find("authentication with the broker failed (_AUTHENTICATION)"), std::string::npos) << error;
  EXPECT_NE(error.find("invalid credentials with SASL mechanism SCRAM-SHA-256"), std::string::npos) << error;
  EXPECT_EQ(error.find(wrong_password), std::string::npos) << error;
  EXPECT_EQ(captured.find(wrong_password), std::string::npos) << "the password is in the log";
  EXPECT_EQ(captured.find(password), std::string::npos) << "the password is in the log";
  EXPECT_EQ(occurrences(captured, "the broker refused this client's credentials"), 1u) << captured;
}

TEST_F(ScramBroker, AProducerThatCannotAuthenticateWithScramFailsEachUpdateOnceWithoutRetrying) {
  // Admin and reader log in with the right SCRAM password; only the status producer's is wrong.
  expect_each_update_fails_once_without_retrying(
      scram_config("scram-producer", password,
                   {{"producer.sasl.jaas.config", jaas("scram.ScramLoginModule", username, wrong_password)},
                    {"producer.message.timeout.ms", "3000"},
                    {"status.storage.retry.max.retries", "5"},
                    {"status.storage.retry.initial.backoff.ms", "100"}}));
}

// The version rule the fixture relies on, from Kafka's release notes for CVE-2024-56128.
TEST(KafkaScramNonceCheck, IsInEveryReleaseFrom372381And390On) {
  for (const char* before : {"3.6.2", "3.7.0", "3.7.1", "3.8.0", "2.8.2"}) {
    EXPECT_FALSE(broker_checks_scram_nonce(before)) << before;
  }
  for (const char* after : {"3.7.2", "3.8.1", "3.9.0", "3.9.1", "4.0.0", "4.4.0"}) {
    EXPECT_TRUE(broker_checks_scram_nonce(after)) << after;
  }
}
