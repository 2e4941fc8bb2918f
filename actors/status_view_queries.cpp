// The status view's answers to the embedder (status_view_actor): current statuses and, from the
// history keeper, transitions and flapping keys. The record side is status_view_actor.cpp.
#include "actors/status_view_state.hpp"

#include <algorithm>
#include <map>

namespace status_store::view_detail {

// -- handlers for the embedder --

caf::result<ok_atom> status_view_state::handle_await() {
  if (caught_up_) return ok_atom::value;
  auto rp = self_->make_response_promise<ok_atom>();
  waiting_for_replay_.push_back(rp);
  return rp;
}

/// What the view knows of one connector: its status, its tasks (by id) and its topics.
connector_view status_view_state::view_of(std::string_view connector) const {
  connector_view v;
  v.name = std::string{connector};
  if (auto it = connectors_.find(connector); it != connectors_.end()) {
    v.found = true;
    v.connector = connector_status{v.name, expand(it->second)};
  }
  if (auto it = tasks_.find(v.name); it != tasks_.end())
    for (const auto& [id, value] : it->second) v.tasks.push_back(task_status{v.name, id, expand(value)});
  if (auto it = topics_.find(v.name); it != topics_.end())
    for (const auto& [name, status] : it->second) v.topics.push_back(status);
  return v;
}

/// One map lookup: the REST task endpoint need not copy the connector's other tasks and topics.
std::vector<task_status> status_view_state::handle_get_task(const std::string& connector, int32_t task) const {
  std::vector<task_status> found;
  if (auto it = tasks_.find(connector); it != tasks_.end())
    if (auto t = it->second.find(task); t != it->second.end())
      found.push_back(task_status{connector, task, expand(t->second)});
  return found;
}

std::vector<std::string> status_view_state::handle_list() const {
  std::vector<std::string> names;
  names.reserve(connectors_.size());
  for (const auto& [name, value] : connectors_) names.emplace_back(name.view());
  std::sort(names.begin(), names.end());
  return names;
}

/// One pass for clients that list every connector with its status (Connect's ?expand=status).
std::vector<connector_view> status_view_state::handle_get_all() const {
  std::vector<connector_view> views;
  views.reserve(connectors_.size());
  for (const auto& [name, value] : connectors_) views.push_back(view_of(name.view()));
  std::sort(views.begin(), views.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return views;
}

key_history status_view_state::handle_history(const std::string& connector) const {
  return history_.history(connector_key(connector));
}

key_history status_view_state::handle_task_history(const std::string& connector, int32_t task) const {
  return history_.history(task_key(connector, task));
}

std::vector<flapping_key> status_view_state::handle_flapping() const { return history_.flapping(); }

/// Every connector with a status (or tasks) counted, 0 when nothing happened: a counter that exists
/// before its first increment lets Prometheus's increase() see that increment.
history_counts status_view_state::handle_history_counts() const {
  std::map<std::string, connector_history_counts, std::less<>> by_name;
  for (const auto& [name, value] : connectors_)
    by_name.emplace(std::string{name.view()}, connector_history_counts{std::string{name.view()}, 0, 0});
  for (const auto& [name, tasks] : tasks_) by_name.emplace(name, connector_history_counts{name, 0, 0});
  history_.add_counts(by_name);
  history_counts counts;
  counts.connectors.reserve(by_name.size());
  for (auto& [name, c] : by_name) counts.connectors.push_back(std::move(c));
  return counts;
}

/// The status page's view: the connectors, when each key last changed and what flaps, from one state.
view_overview status_view_state::handle_overview() const {
  return view_overview{handle_get_all(), history_.last_changes(), history_.flapping()};
}

}  // namespace status_store::view_detail
