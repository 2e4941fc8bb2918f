#pragma once
// The JSON of one status event (messages/status_event.hpp): the line `status-store watch --json`
// prints and the data of one event of GET /status-store/v1/events, from this one function. Fields in
// this order, each only where it applies:
//
//   {"key":"status-task-my-src-0","type":"task","connector":"my-src","task":0,
//    "state":"FAILED","trace":"boom","worker_id":"w1:8083","generation":3,"version":null,
//    "flapping":"started","stale":true,"partition":2,"offset":41,"timestamp_ms":1795979753805}
//
// A deletion has "deleted":true instead of the status fields; a topic status "topic", then "task" and
// "discover_timestamp"; "flapping" is "started" or "stopped" when the record changed it, "stale" true
// for a task's UNASSIGNED the view does not apply; "timestamp_ms" null for a record without one. A key
// that stopped flapping on time alone is {"key","type","connector"[,"task"],"flapping":"stopped",
// "stable_for_ms":W}. Names and traces are anyone's bytes: what is not UTF-8 is written as U+FFFD, so
// the line is always one line of valid JSON (a newline in a trace is the escape \n).
#include "messages/status_event.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace status_store {

/// "connector", "task" or "topic".
std::string_view to_string(key_kind kind);

std::string status_event_json(const status_event& event);

/// The events as Server-Sent Events, one "event: status" each, in order:
/// "event: status\ndata: <status_event_json>\n\n" (the JSON holds no line break, so one data line).
std::string status_events_sse(const std::vector<status_event>& events);

}  // namespace status_store
