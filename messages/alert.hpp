#pragma once
// What the status view tells the alert sender, and what the sender's transport answers: an alert is
// one change of a connector or task that an operator wants pushed (docs/operations.md#webhook-alerts).
// Plain structs with their inspect functions; the JSON an alert becomes is messages/codec/alert_document.hpp.
#include "messages/status.hpp"

#include "caf/meta/type_name.hpp"

#include <cstdint>
#include <string>

namespace status_store {

enum class alert_kind : uint8_t {
  failed,            // entered FAILED
  recovered,         // left FAILED
  flapping_started,  // became flapping (actors/policy/flap_rule.hpp)
  flapping_stopped,  // stable for the flap window again
};

/// One alert, as the view saw it: the key, its state after the change and before it, and the record's time.
struct alert_event {
  alert_kind kind = alert_kind::failed;
  std::string connector;
  bool is_task = false;
  int32_t task = 0;
  status_state state = status_state::unassigned;  // the state now
  bool has_previous = false;                      // whether previous_state is known
  status_state previous_state = status_state::unassigned;
  std::string worker_id;
  int32_t generation = 0;
  std::string trace_first_line;  // empty when the status had no trace
  int64_t timestamp_ms = 0;      // the record's timestamp; for flapping_stopped on the tick, the tick's time
  friend bool operator==(const alert_event&, const alert_event&) = default;
};

/// How one POST ended: the receiver's status code, or 0 and why there was none.
struct alert_post_result {
  int32_t http_status = 0;  // 0: no answer (refused, unreachable, timed out, TLS failed)
  std::string error;        // why there was no answer, for logs; never holds a header value
  friend bool operator==(const alert_post_result&, const alert_post_result&) = default;

  bool delivered() const { return http_status >= 200 && http_status < 300; }
  /// No answer, 408, 429 and 5xx may pass; any other answer (a 4xx, a redirect) says the receiver refuses
  /// this request, and sending it again cannot change that.
  bool retriable() const {
    return http_status == 0 || http_status == 408 || http_status == 429 || (http_status >= 500 && http_status < 600);
  }
};

/// The alert sender's counters: raised = sent + failed + dropped + pending.
struct alert_counters {
  uint64_t raised = 0;   // status-alert-raised-total: alerts the view handed over
  uint64_t sent = 0;     // status-alert-sent-total: answered with a 2xx
  uint64_t retried = 0;  // status-alert-retry-total: re-sends after a retriable outcome
  uint64_t failed = 0;   // status-alert-failure-total: given up after the retries or a refusal
  uint64_t dropped = 0;  // status-alert-dropped-total: pushed out of the full queue unsent
  uint64_t pending = 0;  // status-alert-pending: waiting, being sent, or backing off
  friend bool operator==(const alert_counters&, const alert_counters&) = default;
};

// alert_kind and status_state travel as their underlying bytes.
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, alert_event& x) {
  return f(caf::meta::type_name("alert_event"), reinterpret_cast<uint8_t&>(x.kind), x.connector, x.is_task, x.task,
           reinterpret_cast<uint8_t&>(x.state), x.has_previous, reinterpret_cast<uint8_t&>(x.previous_state),
           x.worker_id, x.generation, x.trace_first_line, x.timestamp_ms);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, alert_post_result& x) {
  return f(caf::meta::type_name("alert_post_result"), x.http_status, x.error);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, alert_counters& x) {
  return f(caf::meta::type_name("alert_counters"), x.raised, x.sent, x.retried, x.failed, x.dropped, x.pending);
}

}  // namespace status_store
