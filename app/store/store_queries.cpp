// The store's blocking queries (Connect's getters): each asks the status view through
// request_or_throw and waits at most the query timeout.
#include "app/store/request_or_throw.hpp"
#include "app/store/store.hpp"

namespace status_store {

connector_view store::describe(const std::string& connector) {
  return request_or_throw<connector_view>(*system_, current(view_), request_timeout(query_timeout_),
                                          "status query for connector '" + connector + "'", get_atom::value, connector);
}

std::optional<connector_status> store::get(const std::string& connector) {
  auto v = describe(connector);
  if (!v.found) return std::nullopt;
  return std::move(v.connector);
}

std::optional<task_status> store::get(const std::string& connector, int32_t task) {
  auto found = request_or_throw<std::vector<task_status>>(
      *system_, current(view_), request_timeout(query_timeout_),
      "status query for task " + connector + "-" + std::to_string(task), get_atom::value, connector, task);
  if (found.empty()) return std::nullopt;
  return std::move(found.front());
}

std::vector<task_status> store::get_all(const std::string& connector) { return describe(connector).tasks; }

std::optional<topic_status> store::get_topic(const std::string& connector, const std::string& topic) {
  for (auto& t : describe(connector).topics)
    if (t.topic == topic) return std::move(t);
  return std::nullopt;
}

std::vector<topic_status> store::get_all_topics(const std::string& connector) { return describe(connector).topics; }

std::vector<connector_view> store::describe_all() {
  return request_or_throw<std::vector<connector_view>>(*system_, current(view_), request_timeout(query_timeout_),
                                                       "status query for every connector", get_atom::value,
                                                       all_atom::value);
}

std::vector<std::string> store::connectors() {
  return request_or_throw<std::vector<std::string>>(*system_, current(view_), request_timeout(query_timeout_),
                                                    "listing connectors", list_atom::value);
}

key_history store::history(const std::string& connector) {
  return request_or_throw<key_history>(*system_, current(view_), request_timeout(query_timeout_),
                                       "history query for connector '" + connector + "'", get_atom::value,
                                       history_atom::value, connector);
}

key_history store::history(const std::string& connector, int32_t task) {
  return request_or_throw<key_history>(*system_, current(view_), request_timeout(query_timeout_),
                                       "history query for task " + connector + "-" + std::to_string(task),
                                       get_atom::value, history_atom::value, connector, task);
}

std::vector<flapping_key> store::flapping() {
  return request_or_throw<std::vector<flapping_key>>(*system_, current(view_), request_timeout(query_timeout_),
                                                     "flapping query", get_atom::value, flapping_atom::value);
}

history_counts store::counts_by_connector() {
  return request_or_throw<history_counts>(*system_, current(view_), request_timeout(query_timeout_),
                                          "history counts query", get_atom::value, history_atom::value,
                                          all_atom::value);
}

view_overview store::overview() {
  return request_or_throw<view_overview>(*system_, current(view_), request_timeout(query_timeout_), "overview query",
                                         get_atom::value, overview_atom::value);
}

}  // namespace status_store
