#include "app/history_format.hpp"

#include "messages/codec/status_key_format.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>

namespace status_store {

namespace {

using json = nlohmann::ordered_json;

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string subject_name(const history_subject& s) {
  return s.task ? "task " + s.connector + "-" + std::to_string(*s.task) : "connector " + s.connector;
}

std::string padded(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

json flapping_object(const flapping_key& k) {
  json j{{"key", k.is_task ? task_key(k.connector, k.task) : connector_key(k.connector)},
         {"type", k.is_task ? "task" : "connector"},
         {"connector", k.connector}};
  if (k.is_task) j["task"] = k.task;
  j["since"] = iso8601_utc(k.since_ms);
  j["since_ms"] = k.since_ms;
  return j;
}

}  // namespace

std::string iso8601_utc(int64_t ms) {
  // Floor division, so that a time before the epoch still has its milliseconds in [0, 999].
  int64_t seconds = ms / 1000, millis = ms % 1000;
  if (millis < 0) {
    millis += 1000;
    seconds -= 1;
  }
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm utc{};
  if (gmtime_r(&t, &utc) == nullptr) return std::to_string(ms) + " ms";
  char text[64];  // room for any int field gcc can imagine, so no truncation warning
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis));
  return text;
}

std::vector<std::string> history_text_lines(const history_subject& subject, const key_history& history) {
  std::string header = "history of " + subject_name(subject) + ": " + std::to_string(history.transitions.size()) +
                       " transition(s), oldest first; ";
  header += history.any_kept ? "the store's history reaches back to " + iso8601_utc(history.reaches_back_to_ms) +
                                   " (older records were compacted away before the replay, or evicted by "
                                   "status.history.max.transitions / status.history.max.total)"
                             : "the store keeps no transition at all (none read, or status.history.max.transitions=0)";
  std::vector<std::string> lines{std::move(header)};
  for (const auto& t : history.transitions) {
    std::string line = iso8601_utc(t.timestamp_ms) + "  " + padded(std::string{to_string(t.state)}, 11) + " " +
                       padded(t.worker_id, 23) + " generation " + std::to_string(t.generation);
    if (t.own) line += "  (this store)";
    if (!t.trace_first_line.empty()) line += "  " + t.trace_first_line;
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string history_json(const history_subject& subject, const key_history& history) {
  json j{{"connector", subject.connector}};
  if (subject.task) j["task"] = *subject.task;
  j["reaches_back_to"] = history.any_kept ? json(iso8601_utc(history.reaches_back_to_ms)) : json(nullptr);
  j["reaches_back_to_ms"] = history.any_kept ? json(history.reaches_back_to_ms) : json(nullptr);
  json transitions = json::array();
  for (const auto& t : history.transitions)
    transitions.push_back(json{{"timestamp", iso8601_utc(t.timestamp_ms)},
                               {"timestamp_ms", t.timestamp_ms},
                               {"state", to_string(t.state)},
                               {"worker_id", t.worker_id},
                               {"generation", t.generation},
                               {"trace", t.trace_first_line.empty() ? json(nullptr) : json(t.trace_first_line)},
                               {"written_by_this_store", t.own}});
  j["transitions"] = std::move(transitions);
  return dump(j);
}

std::vector<std::string> flapping_text_lines(const std::vector<flapping_key>& keys) {
  std::vector<std::string> lines;
  for (const auto& k : keys)
    lines.push_back((k.is_task ? "task " + k.connector + "-" + std::to_string(k.task) : "connector " + k.connector) +
                    " flapping since " + iso8601_utc(k.since_ms));
  lines.push_back(std::to_string(keys.size()) + " flapping connector(s) and task(s)");
  return lines;
}

std::vector<std::string> flapping_lines_json(const std::vector<flapping_key>& keys) {
  std::vector<std::string> lines;
  lines.reserve(keys.size());
  for (const auto& k : keys) lines.push_back(dump(flapping_object(k)));
  return lines;
}

std::string flapping_json(const std::vector<flapping_key>& keys, int32_t threshold, int64_t window_ms) {
  json list = json::array();
  for (const auto& k : keys) list.push_back(flapping_object(k));
  return dump(json{{"threshold", threshold}, {"window_ms", window_ms}, {"flapping", std::move(list)}});
}

}  // namespace status_store
