#include "app/overview_json.hpp"

#include "actors/policy/status_history.hpp"  // first_line_of
#include "app/store/metric_names.hpp"
#include "messages/codec/status_key_format.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>

namespace status_store {

namespace {

using json = nlohmann::ordered_json;

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

/// Milliseconds by status key, for the keys that have them.
using times_by_key = std::map<std::string, int64_t, std::less<>>;

json time_or_null(const times_by_key& times, const std::string& key) {
  const auto it = times.find(key);
  return it != times.end() ? json(it->second) : json(nullptr);
}

/// Adds a status's fields to `j`, after what it holds.
void add_status(json& j, const status_value& v, const std::string& key, const times_by_key& changes,
                const times_by_key& flapping) {
  j["state"] = to_string(v.state);
  j["worker_id"] = v.worker_id;
  j["generation"] = v.generation;
  j["trace"] = v.trace ? json(first_line_of(*v.trace)) : json(nullptr);
  j["last_change_ms"] = time_or_null(changes, key);
  j["flapping_since_ms"] = time_or_null(flapping, key);
}

json connector_json(const connector_view& c, const times_by_key& changes, const times_by_key& flapping) {
  json j{{"name", c.name}};
  if (c.found)
    add_status(j, c.connector.value, connector_key(c.name), changes, flapping);
  else
    j["state"] = nullptr;
  json tasks = json::array();
  for (const auto& t : c.tasks) {
    json task{{"id", t.task}};
    add_status(task, t.value, task_key(c.name, t.task), changes, flapping);
    tasks.push_back(std::move(task));
  }
  j["tasks"] = std::move(tasks);
  return j;
}

}  // namespace

std::string overview_json(const view_overview& overview, int32_t flap_threshold, int64_t flap_window_ms) {
  times_by_key changes, flapping;
  for (const auto& c : overview.changes) changes.emplace(c.key, c.last_change_ms);
  for (const auto& f : overview.flapping)
    flapping.emplace(f.is_task ? task_key(f.connector, f.task) : connector_key(f.connector), f.since_ms);
  json connectors = json::array();
  for (const auto& c : overview.connectors) connectors.push_back(connector_json(c, changes, flapping));
  return dump(json{{"connectors", std::move(connectors)},
                   {"flap", {{"threshold", flap_threshold}, {"window_ms", flap_window_ms}}}});
}

std::string store_metrics_json(const metrics_snapshot& snapshot, const listener_counts& listener) {
  json metrics = json::object();
  for (const auto& m : metric_samples(snapshot)) {
    const bool whole = std::isfinite(m.value) && std::floor(m.value) == m.value && std::fabs(m.value) < 9.0e15;
    metrics[std::string{m.name}] = whole ? json(static_cast<int64_t>(m.value)) : json(m.value);
  }
  return dump(json{{"metrics", std::move(metrics)},
                   {"connections",
                    {{"open", listener.connections_open},
                     {"max", listener.connections_max},
                     {"health_lane_open", listener.health_lane_open},
                     {"shed_total", listener.shed_total}}},
                   {"event_streams",
                    {{"open", listener.streams_open},
                     {"max", listener.streams_max},
                     {"opened_total", listener.streams_opened_total},
                     {"refused_total", listener.streams_refused_total},
                     {"dropped_total", listener.streams_dropped_total}}}});
}

}  // namespace status_store
