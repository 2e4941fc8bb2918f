#include "messages/codec/alert_document.hpp"

#include <nlohmann/json.hpp>

namespace status_store {

std::string_view to_string(alert_kind kind) {
  switch (kind) {
    case alert_kind::failed:
      return "failed";
    case alert_kind::recovered:
      return "recovered";
    case alert_kind::flapping_started:
      return "flapping_started";
    case alert_kind::flapping_stopped:
      return "flapping_stopped";
  }
  return "unknown";
}

std::string alert_text(const alert_event& a) {
  std::string who = a.is_task ? "task " + a.connector + "-" + std::to_string(a.task) : "connector " + a.connector;
  const std::string state{to_string(a.state)};
  const std::string was = a.has_previous ? " (was " + std::string{to_string(a.previous_state)} + ")" : "";
  const std::string on = a.worker_id.empty() ? "" : " on " + a.worker_id;
  switch (a.kind) {
    case alert_kind::failed:
      return who + " entered FAILED" + was + on;
    case alert_kind::recovered:
      return who + " recovered: " + state + was + on;
    case alert_kind::flapping_started:
      return who + " is flapping: " + state + was + on;
    case alert_kind::flapping_stopped:
      return who + " stopped flapping: " + state + " and stable for the flap window" + on;
  }
  return who;
}

std::string alert_document(const alert_event& a, std::string_view status_topic) {
  nlohmann::ordered_json j;
  j["event"] = to_string(a.kind);
  j["type"] = a.is_task ? "task" : "connector";
  j["connector"] = a.connector;
  j["task"] = a.is_task ? nlohmann::ordered_json(a.task) : nlohmann::ordered_json(nullptr);
  j["state"] = to_string(a.state);
  j["previous_state"] =
      a.has_previous ? nlohmann::ordered_json(to_string(a.previous_state)) : nlohmann::ordered_json(nullptr);
  j["worker_id"] = a.worker_id;
  j["generation"] = a.generation;
  j["trace"] =
      a.trace_first_line.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(a.trace_first_line);
  j["timestamp_ms"] = a.timestamp_ms;
  j["status_topic"] = status_topic;
  j["text"] = alert_text(a);
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace status_store
