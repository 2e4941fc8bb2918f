// The store's blocking queries (Connect's getters): each asks the status view and waits at most the
// query timeout. Split from store.cpp, which keeps the lifecycle and the writes.
#include "app/store/store.hpp"

#include "caf/scoped_actor.hpp"

#include <stdexcept>

namespace status_store {

namespace {
/// One blocking request to the view answered with a `T`; throws naming `what` when it fails.
template <class T, class... Ts>
T ask_view(caf::actor_system& system, const status_view_actor& view, caf::timespan timeout, const std::string& what,
           Ts&&... xs) {
  std::optional<T> result;
  std::string failure = "the store is stopped";
  if (view) {
    caf::scoped_actor self{system};
    self->request(view, timeout, std::forward<Ts>(xs)...)
        .receive([&](T& answer) { result = std::move(answer); },
                 [&](caf::error& err) { failure = system.render(err); });
  }
  if (!result) throw std::runtime_error(what + " failed: " + failure);
  return std::move(*result);
}
}  // namespace

connector_view store::describe(const std::string& connector) {
  std::optional<connector_view> result;
  std::string failure = "the store is stopped";
  if (view_) {
    caf::scoped_actor self{*system_};
    self->request(view_, request_timeout(query_timeout_), get_atom::value, connector)
        .receive([&](connector_view& v) { result = std::move(v); },
                 [&](caf::error& err) { failure = system_->render(err); });
  }
  if (!result) throw std::runtime_error("status query for connector '" + connector + "' failed: " + failure);
  return std::move(*result);
}

std::optional<connector_status> store::get(const std::string& connector) {
  auto v = describe(connector);
  if (!v.found) return std::nullopt;
  return std::move(v.connector);
}

std::optional<task_status> store::get(const std::string& connector, int32_t task) {
  std::optional<std::vector<task_status>> result;
  std::string failure = "the store is stopped";
  if (view_) {
    caf::scoped_actor self{*system_};
    self->request(view_, request_timeout(query_timeout_), get_atom::value, connector, task)
        .receive([&](std::vector<task_status>& found) { result = std::move(found); },
                 [&](caf::error& err) { failure = system_->render(err); });
  }
  if (!result)
    throw std::runtime_error("status query for task " + connector + "-" + std::to_string(task) + " failed: " + failure);
  if (result->empty()) return std::nullopt;
  return std::move(result->front());
}

std::vector<task_status> store::get_all(const std::string& connector) { return describe(connector).tasks; }

std::optional<topic_status> store::get_topic(const std::string& connector, const std::string& topic) {
  for (auto& t : describe(connector).topics)
    if (t.topic == topic) return std::move(t);
  return std::nullopt;
}

std::vector<topic_status> store::get_all_topics(const std::string& connector) { return describe(connector).topics; }

std::vector<connector_view> store::describe_all() {
  std::optional<std::vector<connector_view>> result;
  std::string failure = "the store is stopped";
  if (view_) {
    caf::scoped_actor self{*system_};
    self->request(view_, request_timeout(query_timeout_), get_atom::value, all_atom::value)
        .receive([&](std::vector<connector_view>& views) { result = std::move(views); },
                 [&](caf::error& err) { failure = system_->render(err); });
  }
  if (!result) throw std::runtime_error("status query for every connector failed: " + failure);
  return std::move(*result);
}

std::vector<std::string> store::connectors() {
  std::optional<std::vector<std::string>> result;
  std::string failure = "the store is stopped";
  if (view_) {
    caf::scoped_actor self{*system_};
    self->request(view_, request_timeout(query_timeout_), list_atom::value)
        .receive([&](std::vector<std::string>& names) { result = std::move(names); },
                 [&](caf::error& err) { failure = system_->render(err); });
  }
  if (!result) throw std::runtime_error("listing connectors failed: " + failure);
  return std::move(*result);
}

key_history store::history(const std::string& connector) {
  return ask_view<key_history>(*system_, view_, request_timeout(query_timeout_),
                               "history query for connector '" + connector + "'", get_atom::value, history_atom::value,
                               connector);
}

key_history store::history(const std::string& connector, int32_t task) {
  return ask_view<key_history>(*system_, view_, request_timeout(query_timeout_),
                               "history query for task " + connector + "-" + std::to_string(task), get_atom::value,
                               history_atom::value, connector, task);
}

std::vector<flapping_key> store::flapping() {
  return ask_view<std::vector<flapping_key>>(*system_, view_, request_timeout(query_timeout_), "flapping query",
                                             get_atom::value, flapping_atom::value);
}

}  // namespace status_store
