#include "actors/policy/flap_rule.hpp"

#include <algorithm>

namespace status_store {

bool is_unstable_transition(std::optional<status_state> previous, status_state next) {
  if (previous == next) return false;
  if (next == status_state::failed) return true;
  return previous == status_state::running && next == status_state::restarting;
}

flap_rule::change flap_rule::observe(std::string_view key, std::optional<status_state> previous, status_state next,
                                     int64_t at_ms) {
  const bool unstable = is_unstable_transition(previous, next);
  auto it = keys_.find(key);
  if (it == keys_.end()) {
    if (!unstable) return change::none;
    it = keys_.try_emplace(std::string{key}).first;
  }
  key_state& k = it->second;
  if (!unstable) {
    if (!k.flapping || !stable_since(k, at_ms)) return change::none;
    keys_.erase(it);
    --flapping_;
    return change::stopped;
  }
  // A record's time can go back a little (its producer's clock): the window ends at the latest seen.
  k.last_unstable_ms = std::max(k.last_unstable_ms, at_ms);
  k.unstable_ms.push_back(at_ms);
  while (k.unstable_ms.size() > limits_.threshold) k.unstable_ms.pop_front();
  while (!k.unstable_ms.empty() && k.last_unstable_ms - k.unstable_ms.front() >= limits_.window_ms)
    k.unstable_ms.pop_front();
  if (k.flapping || k.unstable_ms.size() < limits_.threshold) return change::none;
  k.flapping = true;
  ++flapping_;
  return change::started;
}

void flap_rule::forget(std::string_view key) {
  const auto it = keys_.find(key);
  if (it == keys_.end()) return;
  if (it->second.flapping) --flapping_;
  keys_.erase(it);
}

std::vector<std::string> flap_rule::take_recovered(int64_t now_ms) {
  std::vector<std::string> recovered;
  for (auto it = keys_.begin(); it != keys_.end();) {
    if (!stable_since(it->second, now_ms)) {
      ++it;
      continue;
    }
    // Stable for a window: a flapping key recovers, any other key has nothing left to count.
    if (it->second.flapping) {
      recovered.push_back(it->first);
      --flapping_;
    }
    it = keys_.erase(it);
  }
  return recovered;
}

std::optional<int64_t> flap_rule::next_due() const {
  std::optional<int64_t> due;
  for (const auto& [key, k] : keys_) {
    const int64_t stable_at = k.last_unstable_ms + limits_.window_ms;
    if (k.flapping && (!due || stable_at < *due)) due = stable_at;
  }
  return due;
}

bool flap_rule::flapping(std::string_view key) const {
  const auto it = keys_.find(key);
  return it != keys_.end() && it->second.flapping;
}

}  // namespace status_store
