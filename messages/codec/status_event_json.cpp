#include "messages/codec/status_event_json.hpp"

#include <nlohmann/json.hpp>

namespace status_store {

namespace {

using json = nlohmann::ordered_json;

json optional_string(const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); }

const char* mark_name(flap_mark mark) {
  return mark == flap_mark::started ? "started" : mark == flap_mark::stopped ? "stopped" : nullptr;
}

}  // namespace

std::string_view to_string(key_kind kind) {
  switch (kind) {
    case key_kind::connector:
      return "connector";
    case key_kind::task:
      return "task";
    case key_kind::topic:
      return "topic";
  }
  return "?";
}

std::string status_event_json(const status_event& e) {
  json j{{"key", e.key}, {"type", to_string(e.type)}, {"connector", e.connector}};
  if (e.type == key_kind::task) j["task"] = e.task;
  if (e.type == key_kind::topic) j["topic"] = e.topic;
  switch (e.kind) {
    case status_event_kind::stable:
      j["flapping"] = "stopped";
      j["stable_for_ms"] = e.stable_for_ms;
      return j.dump(-1, ' ', false, json::error_handler_t::replace);
    case status_event_kind::deleted:
      j["deleted"] = true;
      break;
    case status_event_kind::topic:
      j["task"] = e.task;
      j["discover_timestamp"] = e.discover_timestamp;
      break;
    case status_event_kind::status:
      j["state"] = to_string(e.value.state);
      j["trace"] = optional_string(e.value.trace);
      j["worker_id"] = e.value.worker_id;
      j["generation"] = e.value.generation;
      j["version"] = optional_string(e.value.version);
      break;
  }
  if (const char* m = mark_name(e.flapping)) j["flapping"] = m;
  if (e.stale) j["stale"] = true;
  j["partition"] = e.partition;
  j["offset"] = e.offset;
  j["timestamp_ms"] = e.timestamp_ms >= 0 ? json(e.timestamp_ms) : json(nullptr);
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string status_events_sse(const std::vector<status_event>& events) {
  std::string out;
  for (const auto& e : events) {
    out += "event: status\ndata: ";
    out += status_event_json(e);
    out += "\n\n";
  }
  return out;
}

}  // namespace status_store
