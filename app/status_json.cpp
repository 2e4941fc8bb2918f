#include "app/status_json.hpp"

#include "messages/status_record_codec.hpp"

#include <nlohmann/json.hpp>

namespace status_store {

namespace {

using json = nlohmann::ordered_json;

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Connect 4.4's ConnectorStateInfo.AbstractState, in the order its REST API prints it: "version" always
// (null when unknown; left out only when it is "undefined", PluginInfo.NoVersionFilter), "trace" last
// and only when non-empty (@JsonInclude(NON_EMPTY)). Checked with javap in connect-runtime 4.4.0.
json state_info(const status_value& v) {
  json j{{"state", to_string(v.state)}, {"worker_id", v.worker_id}};
  if (!v.version)
    j["version"] = nullptr;
  else if (*v.version != "undefined")
    j["version"] = *v.version;
  if (v.trace && !v.trace->empty()) j["trace"] = *v.trace;
  return j;
}

json line(const std::string& key, const char* type, const std::string& connector) {
  return json{{"key", key}, {"type", type}, {"connector", connector}};
}

void add_status(json& j, const status_value& v) {
  j["state"] = to_string(v.state);
  j["trace"] = v.trace ? json(*v.trace) : json(nullptr);
  j["worker_id"] = v.worker_id;
  j["generation"] = v.generation;
  j["version"] = v.version ? json(*v.version) : json(nullptr);
}

json task_info(const task_status& t) {
  json task{{"id", t.task}};
  task.update(state_info(t.value));
  return task;
}

json connector_info(const connector_view& view) {
  json tasks = json::array();
  for (const auto& t : view.tasks) tasks.push_back(task_info(t));
  // Connect says "unknown" (ConnectorType.UNKNOWN) when it cannot tell a connector's type, as a status
  // store never can; clients read the key, so it is there.
  return json{{"name", view.name},
              {"connector", state_info(view.connector.value)},
              {"tasks", std::move(tasks)},
              {"type", "unknown"}};
}

}  // namespace

std::string connectors_json(const std::vector<std::string>& names) { return dump(json(names)); }

std::string connector_status_json(const connector_view& view) { return dump(connector_info(view)); }

std::string task_status_json(const task_status& task) { return dump(task_info(task)); }

std::string connectors_with_status_json(const std::vector<connector_view>& views) {
  json all = json::object();
  for (const auto& v : views)
    if (v.found) all[v.name] = json{{"status", connector_info(v)}};
  return dump(all);
}

std::string connectors_without_expansions_json(const std::vector<std::string>& names) {
  json all = json::object();
  for (const auto& name : names) all[name] = json::object();
  return dump(all);
}

std::string connector_topics_json(const connector_view& view) {
  json topics = json::array();
  for (const auto& t : view.topics) topics.push_back(t.topic);
  return dump(json{{view.name, json{{"topics", std::move(topics)}}}});
}

std::vector<std::string> status_lines_json(const connector_view& view) {
  std::vector<std::string> out;
  if (view.found) {
    json j = line(connector_key(view.connector.connector), "connector", view.connector.connector);
    add_status(j, view.connector.value);
    out.push_back(dump(j));
  }
  for (const auto& t : view.tasks) {
    json j = line(task_key(t.connector, t.task), "task", t.connector);
    j["task"] = t.task;
    add_status(j, t.value);
    out.push_back(dump(j));
  }
  for (const auto& t : view.topics) {
    json j = line(topic_key(t.topic, t.connector), "topic", t.connector);
    j["task"] = t.task;
    j["topic"] = t.topic;
    j["discover_timestamp"] = t.discover_timestamp;
    out.push_back(dump(j));
  }
  return out;
}

}  // namespace status_store
