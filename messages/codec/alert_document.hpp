#pragma once
// The JSON document a webhook receives for one alert (docs/operations.md#webhook-alerts), fields in
// this order, always all of them:
//
//   {"event":"failed","type":"task","connector":"my-src","task":0,"state":"FAILED",
//    "previous_state":"RUNNING","worker_id":"w1:8083","generation":3,
//    "trace":"java.lang.RuntimeException: boom","timestamp_ms":1795979753805,
//    "status_topic":"connect-status","text":"task my-src-0 entered FAILED (was RUNNING) on w1:8083"}
//
// "task" is null for a connector, "previous_state" null when unknown, "trace" (the trace's first line)
// null when the status has none; "text" is one line for a human (or a chat webhook). Strings that are
// not valid UTF-8 (a name is anyone's bytes) are written with U+FFFD, so the body is always valid JSON.
#include "messages/alert.hpp"

#include <string>
#include <string_view>

namespace status_store {

/// "failed", "recovered", "flapping_started" or "flapping_stopped".
std::string_view to_string(alert_kind kind);

/// The document for `alert`, read from `status_topic`.
std::string alert_document(const alert_event& alert, std::string_view status_topic);

/// The document's "text": e.g. "task my-src-0 entered FAILED (was RUNNING) on w1:8083".
std::string alert_text(const alert_event& alert);

}  // namespace status_store
