// SCRAM-SHA-256 and SCRAM-SHA-512 end to end on the one-node cluster (label system, Kafka 4.4.0):
// status-store logs in with the right credential, writes and reads back; a wrong password fails
// start-up at once, and a status producer with a wrong password fails each update after one attempt,
// as with PLAIN; a SCRAM user added at run time (Kafka's ConfigCommand) is used once it exists.
// Needs librdkafka >= 2.6.1 on Kafka with the CVE-2024-56128 fix (3.7.2, 3.8.1, 3.9.0, every 4.x):
// older librdkafka repeats the client nonce in SCRAM's final message, which those brokers refuse
// (confluentinc/librdkafka#4895); the fixture fails naming that when built against such a librdkafka.
#include "secure_broker.hpp"
#include "stderr_capture.hpp"

#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>

#include <unistd.h>
#include <array>
#include <cstdio>
#include <cstdlib>

using namespace status_store;
using namespace status_store::system_test;
using namespace std::chrono_literals;

namespace {

struct ScramBroker : secure_broker_test {
  void SetUp() override {
    secure_broker_test::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_TRUE(librdkafka_logs_in_with_scram_to(broker_version()))
        << "librdkafka " << rd_kafka_version_str() << " cannot log in with SCRAM to Kafka " << broker_version()
        << " (CVE-2024-56128 nonce check; fixed in librdkafka 2.6.1): build with the default librdkafka "
        << "(scripts/build-librdkafka.sh)";
  }

  worker_config scram_config(const std::string& stem, const std::string& pass, properties extra = {},
                             const std::string& mechanism = "SCRAM-SHA-256") const {
    return sasl_config(unique_topic(stem), mechanism, "scram.ScramLoginModule", pass, std::move(extra));
  }

  /// What an operator does to add a SCRAM user to a running cluster: Kafka's own ConfigCommand
  /// (AlterUserScramCredentials; org.apache.kafka.tools.ConfigCommand from kafka-tools since Kafka 4,
  /// which has no kafka.admin.ConfigCommand), from the broker's jars, over the PLAINTEXT listener.
  bool add_scram_credential(const std::string& mechanism, const std::string& user, const std::string& pass) {
    const char* script = std::getenv("STATUS_STORE_KAFKA_LOCAL");
    if (!script) return false;
    std::string lib;
    if (FILE* out = ::popen(("bash '" + std::string{script} + "' fetch 2>/dev/null").c_str(), "r")) {
      std::array<char, 512> line{};
      while (std::fgets(line.data(), line.size(), out)) lib = line.data();
      ::pclose(out);
    }
    while (!lib.empty() && (lib.back() == '\n' || lib.back() == '\r')) lib.pop_back();
    if (lib.empty()) return false;
    // Letters and digits only in both, so nothing here needs quoting beyond the brackets.
    const std::string command = "java -XX:TieredStopAtLevel=1 -cp '" + lib +
                                "/*' org.apache.kafka.tools.ConfigCommand "
                                "--bootstrap-server " +
                                bootstrap() + " --alter --add-config '" + mechanism +
                                "=[iterations=4096,password=" + pass + "]' --entity-type users --entity-name " + user +
                                " > /dev/null 2>&1";
    return std::system(command.c_str()) == 0;
  }
};

}  // namespace

TEST_F(ScramBroker, ScramSha256WithTheRightPasswordWritesAndReadsBackAndLogsNoSecret) {
  stderr_capture log;
  expect_round_trip(scram_config("scram256-right", password));
  const std::string captured = log.text();
  EXPECT_EQ(captured.find(password), std::string::npos) << "the password is in the log";
  EXPECT_EQ(captured.find("_AUTHENTICATION"), std::string::npos) << "an authentication error with the right password";
}

TEST_F(ScramBroker, ScramSha512WithTheRightPasswordWritesAndReadsBackAndLogsNoSecret) {
  stderr_capture log;
  expect_round_trip(scram_config("scram512-right", password, {}, "SCRAM-SHA-512"));
  const std::string captured = log.text();
  EXPECT_EQ(captured.find(password), std::string::npos) << "the password is in the log";
  EXPECT_EQ(captured.find("_AUTHENTICATION"), std::string::npos) << "an authentication error with the right password";
}

TEST_F(ScramBroker, ScramSha256WithAWrongPasswordFailsStartUpAtOnceAsAnAuthenticationErrorLoggedOnce) {
  // A start-up deadline longer than the test's ctest timeout: only the authentication error itself
  // can end the start-up in time.
  expect_start_up_refused_once(
      scram_config("scram-wrong", wrong_password, {{"status.storage.startup.timeout.ms", "600000"}}),
      "invalid credentials with SASL mechanism SCRAM-SHA-256");
}

TEST_F(ScramBroker, AProducerThatCannotAuthenticateWithScramFailsEachUpdateOnceWithoutRetrying) {
  // Admin and reader log in with the right SCRAM-SHA-512 password; only the status producer's is wrong.
  expect_each_update_fails_once_without_retrying(
      scram_config("scram-producer", password,
                   {{"producer.sasl.jaas.config", jaas("scram.ScramLoginModule", username, wrong_password)},
                    {"producer.message.timeout.ms", "3000"},
                    {"status.storage.retry.max.retries", "5"},
                    {"status.storage.retry.initial.backoff.ms", "100"}},
                   "SCRAM-SHA-512"));
}

// Helper 6's edge case: credentials that start working again before anything was delivered, then an
// outage. The broker's _TRANSPORT errors end the credential episode, so the outage's timeouts are
// retried and delivered once the broker is back, instead of being taken for authentication failures
// (which are never retried) because the last thing the producer heard was a refused password.
TEST_F(ScramBroker, ACredentialThatStartsWorkingBeforeAnOutageLetsTheOutagesTimeoutsBeRetried) {
  const std::string late_user = "late-" + std::to_string(::getpid());
  const std::string late_password = password.substr(0, 12) + "Late" + password.substr(12);
  const auto config =
      scram_config("scram-late-user", password,
                   {{"producer.sasl.jaas.config", jaas("scram.ScramLoginModule", late_user, late_password)},
                    {"producer.message.timeout.ms", "3000"},
                    {"producer.reconnect.backoff.max.ms", "1000"},
                    {"status.storage.retry.max.retries", "20"},
                    {"status.storage.retry.initial.backoff.ms", "200"},
                    {"status.storage.retry.max.backoff.ms", "1000"}});
  auto s = open_store(config, store_options{.jitter_seed = 1});
  // 1. The producer's user does not exist yet: each update fails once as an authentication failure.
  for (int i = 0; i < 5; ++i)
    s->put(connector_status{"before-" + std::to_string(i), {status_state::running, {}, "w:8083", 1}});
  ASSERT_TRUE(s->flush(60s));
  auto c = s->metrics().counters;
  ASSERT_EQ(c.authentication_failure, 5u);
  ASSERT_EQ(c.retry, 0u);

  // 2. The operator adds the user; before anything is delivered with it, the broker goes away.
  ASSERT_TRUE(add_scram_credential("SCRAM-SHA-256", late_user, late_password))
      << "ConfigCommand could not add the SCRAM user";
  ASSERT_TRUE(kafka_local("stop 1"));
  for (int i = 0; i < 5; ++i)
    s->put(connector_status{"outage-" + std::to_string(i), {status_state::running, {}, "w:8083", 2}});
  // Each attempt times out after 3 s: retried, not failed.
  const bool retried = eventually([&] { return s->metrics().counters.retry >= 5; }, 30s);
  c = s->metrics().counters;
  EXPECT_TRUE(retried) << "retries " << c.retry << ", failures " << c.failure << ", authentication failures "
                       << c.authentication_failure;
  EXPECT_EQ(c.authentication_failure, 5u) << "the outage's timeouts were taken for authentication failures";

  // 3. The broker is back: the new user logs in and every outage update is delivered.
  ASSERT_TRUE(kafka_local("start 1"));
  ASSERT_TRUE(s->flush(90s)) << "updates still pending";
  c = s->metrics().counters;
  EXPECT_EQ(c.success, 5u);
  EXPECT_EQ(c.failure, 5u) << "only the five updates sent before the user existed failed";
  EXPECT_EQ(c.authentication_failure, 5u);
  s->stop();
  auto reader = open_store(config);
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(reader->get("outage-" + std::to_string(i))) << "outage-" << i;
  reader->stop();
}

// The version rule the fixture relies on, from Kafka's release notes for CVE-2024-56128 (with
// librdkafka >= 2.6.1 every Kafka accepts the login; older librdkafka only those before the fix).
TEST(KafkaScramNonceCheck, IsInEveryReleaseFrom372381And390On) {
  for (const char* before : {"3.6.2", "3.7.0", "3.7.1", "3.8.0", "2.8.2"}) {
    EXPECT_FALSE(broker_checks_scram_nonce(before)) << before;
  }
  for (const char* after : {"3.7.2", "3.8.1", "3.9.0", "3.9.1", "4.0.0", "4.4.0"}) {
    EXPECT_TRUE(broker_checks_scram_nonce(after)) << after;
  }
}
