#include "status_ops.hpp"

#include <nlohmann/json.hpp>

#include <chrono>

namespace status_store::interop {

namespace {

using json = nlohmann::json;

status_op make(status_op::kind what, decltype(status_op::status) status) { return status_op{what, std::move(status)}; }

void put_value(json& j, const status_value& value) {
  j["state"] = std::string(to_string(value.state));
  j["trace"] = value.trace ? json(*value.trace) : json(nullptr);
  j["worker_id"] = value.worker_id;
  j["generation"] = value.generation;
  if (value.version) j["version"] = *value.version;
}

json to_json(const status_op& op) {
  json j;
  switch (op.what) {
    case status_op::kind::put:
    case status_op::kind::put_safe:
      j["op"] = op.what == status_op::kind::put ? "put" : "put-safe";
      if (const auto* c = std::get_if<connector_status>(&op.status)) {
        j["connector"] = c->connector;
        put_value(j, c->value);
      } else {
        const auto& t = std::get<task_status>(op.status);
        j["connector"] = t.connector;
        j["task"] = t.task;
        put_value(j, t.value);
      }
      return j;
    case status_op::kind::put_topic: {
      const auto& t = std::get<topic_status>(op.status);
      return json{{"op", "put-topic"},
                  {"connector", t.connector},
                  {"topic", t.topic},
                  {"task", t.task},
                  {"discover_timestamp", t.discover_timestamp}};
    }
    case status_op::kind::delete_topic: {
      const auto& t = std::get<topic_status>(op.status);
      return json{{"op", "delete-topic"}, {"connector", t.connector}, {"topic", t.topic}};
    }
    case status_op::kind::flush:
      return json{{"op", "flush"}};
  }
  return j;
}

}  // namespace

status_op put(connector_status status) { return make(status_op::kind::put, std::move(status)); }
status_op put(task_status status) { return make(status_op::kind::put, std::move(status)); }
status_op put_safe(connector_status status) { return make(status_op::kind::put_safe, std::move(status)); }
status_op put_safe(task_status status) { return make(status_op::kind::put_safe, std::move(status)); }
status_op put_topic(topic_status status) { return make(status_op::kind::put_topic, std::move(status)); }
status_op delete_topic(std::string connector, std::string topic) {
  return make(status_op::kind::delete_topic, topic_status{std::move(topic), std::move(connector), 0, 0});
}
status_op flush() { return status_op{}; }

bool play(store& s, const std::vector<status_op>& ops) {
  for (const auto& op : ops) {
    switch (op.what) {
      case status_op::kind::put:
        if (const auto* c = std::get_if<connector_status>(&op.status))
          s.put(*c);
        else
          s.put(std::get<task_status>(op.status));
        break;
      case status_op::kind::put_safe:
        if (const auto* c = std::get_if<connector_status>(&op.status))
          s.put_safe(*c);
        else
          s.put_safe(std::get<task_status>(op.status));
        break;
      case status_op::kind::put_topic:
        s.put(std::get<topic_status>(op.status));
        break;
      case status_op::kind::delete_topic: {
        const auto& t = std::get<topic_status>(op.status);
        s.delete_topic(t.connector, t.topic);
        break;
      }
      case status_op::kind::flush:
        if (!s.flush(std::chrono::seconds{30})) return false;
        break;
    }
  }
  return s.flush(std::chrono::seconds{30});
}

std::string to_driver_ops(const std::vector<status_op>& ops) {
  std::string out;
  for (const auto& op : ops) out += to_json(op).dump() + "\n";
  return out;
}

}  // namespace status_store::interop
