#pragma once
// The one-node cluster's authenticated listeners (scripts/kafka-local.sh): SASL_PLAINTEXT with PLAIN
// and SCRAM-SHA-256/512, and SSL, seen through the variables `kafka-local.sh run 1` exports, plus the
// checks the security tests share: a round trip with the right credentials, a start-up refused for
// the wrong ones, and a status producer that cannot authenticate. Used by security_test.cpp and
// scram_round_trip_test.cpp (label system, Kafka 4.4.0).
#include "kafka_cluster.hpp"

#include <string>

namespace status_store::system_test {

/// The broker version `kafka-local.sh run` exported (KAFKA_VERSION), e.g. "4.4.0".
std::string broker_version();

/// Whether a Kafka release has the CVE-2024-56128 fix (3.7.2, 3.8.1, 3.9.0 and every 4.x): its SCRAM
/// server then compares the nonce of the client's final message exactly, which librdkafka 2.0.2's
/// SCRAM client fails (it repeats the client nonce: confluentinc/librdkafka#4895). "3.8.0" -> false.
bool broker_checks_scram_nonce(const std::string& version);

/// Whether the librdkafka loaded (>= 2.6.1 has the fix) can log in with SCRAM to that Kafka release.
bool librdkafka_logs_in_with_scram_to(const std::string& kafka_version);

/// A JAAS entry as a Connect worker writes it: `module` is "plain.PlainLoginModule" or
/// "scram.ScramLoginModule".
std::string jaas(const std::string& module, const std::string& username, const std::string& password);

/// Non-overlapping occurrences of `needle` in `text`.
size_t occurrences(const std::string& text, const std::string& needle);

struct secure_broker_test : single_node_test {
  void SetUp() override;

  /// A worker on the SASL listener, as a Connect worker file would say it.
  worker_config sasl_config(const std::string& topic, const std::string& mechanism, const std::string& module,
                            const std::string& pass, properties extra = {}) const;

  /// Writes 20 statuses, then reads them back through a second store (its own replay); no failure,
  /// retry or authentication failure, and no password in the Prometheus text.
  void expect_round_trip(const worker_config& config);

  /// Opens a store that must not start; returns its error (empty if it started).
  static std::string start_up_error(const worker_config& config);

  /// A store with a wrong password (and a start-up deadline beyond the test's timeout) fails to
  /// start on the authentication error itself, naming it and `broker_reason`; the credential
  /// failure is logged once; neither password is in the error or the log.
  void expect_start_up_refused_once(const worker_config& config, const std::string& broker_reason);

  /// A store whose status producer cannot authenticate (admin and reader can): 15 updates, each
  /// failed after one attempt, counted as authentication failures, never retried, logged once, and
  /// neither password anywhere in the log or the Prometheus text.
  void expect_each_update_fails_once_without_retrying(const worker_config& config);

  std::string sasl_bootstrap, ssl_bootstrap, ssl_ca, username, password, wrong_password;
};

}  // namespace status_store::system_test
