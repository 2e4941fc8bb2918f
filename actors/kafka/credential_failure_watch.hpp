#pragma once
// librdkafka reports a rejected password or a failed TLS handshake only through its error callback
// (_AUTHENTICATION / _SSL, served by rd_kafka_poll): requests meanwhile just wait for a broker that
// never comes up, and fail with _TRANSPORT or _MSG_TIMED_OUT when their own timeouts run out. This
// watch remembers such a failure so the store can name it and stop waiting: start-up fails at once
// with the reason, and produce requests fail as non-retriable instead of being retried.
//
// Measured with librdkafka 2.0.2 against Kafka 4.4.0, wrong PLAIN password: the broker closes the
// connection after 0.3 s, librdkafka logs "SASL authentication error: Authentication failed:
// Invalid username or password", reconnects every reconnect.backoff.ms (suppressing identical
// errors), and queues _AUTHENTICATION for the error callback; a metadata request returns
// _TRANSPORT after its timeout and a produced message gets _MSG_TIMED_OUT after message.timeout.ms.
// A TLS verification failure behaves the same with _SSL. Neither is a fatal error
// (rd_kafka_fatal_error stays 0).
//
// An episode ends when a request succeeds, or when a connection fails for another reason: during a
// credential episode librdkafka reports only _AUTHENTICATION / _SSL and _ALL_BROKERS_DOWN, while a
// broker that goes away — even one this client had authenticated with — gives _TRANSPORT
// ("Disconnected (after … in state UP)", "Connect to … failed: Connection refused"), measured for
// PLAIN and TLS against Kafka 4.4.0. Without that second rule, credentials that started working
// again (an operator adding the missing SCRAM user) followed by an outage before any delivery would
// make the outage's timeouts look like credential failures, which are not retried. When in doubt the
// watch lets a failure be retried: a retried authentication failure costs a few attempts, a network
// failure taken for a credential failure loses the update.
#include <librdkafka/rdkafka.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <string>

namespace status_store {

struct credential_failure {
  rd_kafka_resp_err_t error = RD_KAFKA_RESP_ERR_NO_ERROR;
  std::string reason;  // librdkafka's text; it names the broker and the cause, never a credential
};

class credential_failure_watch {
 public:
  /// _AUTHENTICATION, _SSL and the broker's SASL_AUTHENTICATION_FAILED.
  static bool is_credential_error(rd_kafka_resp_err_t error);

  /// _TRANSPORT and _RESOLVE: a connection failed for a reason other than credentials, which ends
  /// an episode (see above).
  static bool is_connection_error(rd_kafka_resp_err_t error);

  /// `client` names the client in logs ("admin", "status producer").
  explicit credential_failure_watch(std::string client) : client_{std::move(client)} {}

  /// Sets `conf`'s error callback to this watch (and its opaque: use only on a conf whose opaque is
  /// not otherwise used).
  void install(rd_kafka_conf_t* conf);

  /// Records a credential failure (logged at ERROR once per episode), ends an episode on a
  /// connection error, and logs any other error as librdkafka would without an error callback.
  /// Thread-safe.
  void on_error(rd_kafka_resp_err_t error, const char* reason);

  /// Ends an episode: a request succeeded, so the credentials work (again).
  void clear();

  std::optional<credential_failure> failure() const;
  bool failing() const { return failing_.load(std::memory_order_acquire); }

 private:
  static void error_callback(rd_kafka_t* rk, int error, const char* reason, void* opaque);
  /// Ends an episode, logging `why` once; false if none was going on.
  bool end_episode(const std::string& why);

  std::string client_;
  std::atomic<bool> failing_{false};
  mutable std::mutex mutex_;
  credential_failure failure_;
};

}  // namespace status_store
