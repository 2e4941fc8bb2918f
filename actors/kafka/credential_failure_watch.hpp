#pragma once
// librdkafka reports a rejected password or a failed TLS handshake only through its error callback
// (_AUTHENTICATION / _SSL): requests just wait for a broker that never comes up and end as _TRANSPORT
// or _MSG_TIMED_OUT. This watch remembers such a failure so the store can name it and stop waiting:
// start-up fails at once with the reason, and sends fail as non-retriable instead of being retried.
// An episode ends with a successful request, or with a connection failing for another reason
// (_TRANSPORT, _RESOLVE), which librdkafka never reports while it refuses credentials; when in doubt a
// failure is retried, since a network failure taken for a credential failure would lose the update.
// The measured sequences: docs/security.md, "When the broker refuses the credentials".
#include <librdkafka/rdkafka.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

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
  bool end_episode(std::string_view why);

  std::string client_;
  std::atomic<bool> failing_{false};
  mutable std::mutex mutex_;
  credential_failure failure_;
};

}  // namespace status_store
