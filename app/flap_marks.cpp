#include "app/flap_marks.hpp"

namespace status_store {

flap_rule::change flap_marks::status(const parsed_key& key, std::string_view record_key, const status_value& value,
                                     int64_t at_ms) {
  auto it = last_.find(record_key);
  std::optional<status_state> previous;
  if (it != last_.end()) {
    if (key.kind == key_kind::task &&
        is_stale_unassigned(it->second.state, it->second.generation, value.state, value.generation))
      return flap_rule::change::none;
    previous = it->second.state;
    it->second = last_status{value.state, value.generation};
  } else {
    last_.emplace(std::string{record_key}, last_status{value.state, value.generation});
    if (key.kind == key_kind::task) tasks_[key.connector][key.task] = std::string{record_key};
  }
  return rule_.observe(record_key, previous, value.state, at_ms);
}

bool flap_marks::is_stale(const parsed_key& key, std::string_view record_key, const status_value& value) const {
  if (key.kind != key_kind::task) return false;
  const auto it = last_.find(record_key);
  return it != last_.end() &&
         is_stale_unassigned(it->second.state, it->second.generation, value.state, value.generation);
}

void flap_marks::tombstone(const parsed_key& key, std::string_view record_key) {
  const auto forget = [this](std::string_view k) {
    rule_.forget(k);
    if (const auto it = last_.find(k); it != last_.end()) last_.erase(it);
  };
  forget(record_key);
  const auto tasks = tasks_.find(key.connector);
  if (tasks == tasks_.end()) return;
  if (key.kind == key_kind::task) {
    tasks->second.erase(key.task);
  } else {
    for (const auto& [id, task_record_key] : tasks->second) forget(task_record_key);
    tasks->second.clear();
  }
  if (tasks->second.empty()) tasks_.erase(tasks);
}

}  // namespace status_store
