#include "actors/policy/history_keeper.hpp"

namespace status_store {

flap_rule::change history_keeper::applied(const status_key_ref& ref, std::optional<status_state> previous,
                                          const status_value& value, int64_t at_ms, bool own) {
  history_.record(ref.key, status_transition{value.state, value.worker_id, value.generation,
                                             value.trace ? first_line_of(*value.trace) : std::string{}, at_ms, own});
  if (is_failed_entry(previous, value.state)) ++failed_[std::string{ref.connector}];
  const auto change = flap_.observe(ref.key, previous, value.state, at_ms);
  switch (change) {
    case flap_rule::change::started:
      flapping_since_[std::string{ref.key}] =
          flapping_key{std::string{ref.connector}, ref.task.has_value(), ref.task.value_or(0), at_ms};
      break;
    case flap_rule::change::stopped:
      flapping_since_.erase(std::string{ref.key});
      break;
    case flap_rule::change::none:
      break;
  }
  return change;
}

void history_keeper::erased(std::string_view key) {
  history_.erase(key);
  flap_.forget(key);
  if (const auto it = flapping_since_.find(key); it != flapping_since_.end()) flapping_since_.erase(it);
}

std::vector<flapping_key> history_keeper::take_recovered(int64_t now_ms) {
  std::vector<flapping_key> recovered;
  for (const auto& key : flap_.take_recovered(now_ms)) {
    const auto it = flapping_since_.find(key);
    if (it == flapping_since_.end()) continue;
    recovered.push_back(std::move(it->second));
    flapping_since_.erase(it);
  }
  return recovered;
}

key_history history_keeper::history(std::string_view key) const {
  key_history h;
  h.transitions = history_.of(key);
  if (const auto oldest = history_.reaches_back_to()) {
    h.any_kept = true;
    h.reaches_back_to_ms = *oldest;
  }
  return h;
}

std::vector<flapping_key> history_keeper::flapping() const {
  std::vector<flapping_key> keys;
  keys.reserve(flapping_since_.size());
  for (const auto& [key, f] : flapping_since_) keys.push_back(f);
  return keys;
}

uint64_t history_keeper::failed_transitions(std::string_view connector) const {
  const auto it = failed_.find(connector);
  return it == failed_.end() ? 0 : it->second;
}

void history_keeper::add_counts(std::map<std::string, connector_history_counts, std::less<>>& counts) const {
  const auto of = [&counts](const std::string& connector) -> connector_history_counts& {
    auto it = counts.find(connector);
    if (it == counts.end()) it = counts.emplace(connector, connector_history_counts{connector, 0, 0}).first;
    return it->second;
  };
  for (const auto& [connector, n] : failed_) of(connector).failed_transitions = n;
  for (const auto& [key, f] : flapping_since_) ++of(f.connector).flapping_keys;
}

}  // namespace status_store
