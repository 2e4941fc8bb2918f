#pragma once
// When a connector or task is flapping: it became unstable at least `threshold` times within
// `window_ms`, and it stays flapping until it has been stable for `window_ms`. Pure logic: no clock,
// no actor; the caller passes each record's time and asks what has recovered (docs/operations.md).
//
// Unstable means entering FAILED, or leaving RUNNING for a state an operator or a rebalance does not
// explain (RESTARTING, or FAILED itself): RUNNING → PAUSED, STOPPED, UNASSIGNED or DESTROYED is a
// command or a rebalance, and a rolling restart of the workers must not mark every task flapping.
#include "messages/status.hpp"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace status_store {

/// Whether going from `previous` (none: the key's first record) to `next` counts towards flapping.
bool is_unstable_transition(std::optional<status_state> previous, status_state next);

/// Entering FAILED (a FAILED written over a FAILED is not an entry): what the per-connector FAILED
/// counter counts and what a `failed` alert announces.
inline bool is_failed_entry(std::optional<status_state> previous, status_state next) {
  return next == status_state::failed && previous != status_state::failed;
}

/// Leaving FAILED for any other state: what a `recovered` alert announces.
inline bool is_failed_exit(std::optional<status_state> previous, status_state next) {
  return previous == status_state::failed && next != status_state::failed;
}

class flap_rule {
 public:
  struct limits {
    uint32_t threshold = 3;
    int64_t window_ms = 600'000;
  };
  enum class change { none, started, stopped };

  explicit flap_rule(limits l) : limits_{l} {}

  /// A record of `key` at `at_ms` moved it from `previous` to `next`: whether it starts flapping
  /// (or, stable for a window while flapping, stops).
  change observe(std::string_view key, std::optional<status_state> previous, status_state next, int64_t at_ms);
  /// The key was deleted (a tombstone): forgotten, flapping or not.
  void forget(std::string_view key);
  /// The keys that have been stable for a window by `now_ms` and so stop flapping, in name order.
  std::vector<std::string> take_recovered(int64_t now_ms);
  /// When the first flapping key will have been stable for a window; nullopt when none flaps.
  std::optional<int64_t> next_due() const;

  bool flapping(std::string_view key) const;
  std::size_t flapping_count() const { return flapping_; }
  /// Keys with recent unstable transitions or flapping; bounded by keys, each by `threshold` times.
  std::size_t tracked_keys() const { return keys_.size(); }

 private:
  struct key_state {
    std::deque<int64_t> unstable_ms;  // the last `threshold` unstable transitions, oldest first
    int64_t last_unstable_ms = 0;
    bool flapping = false;
  };
  bool stable_since(const key_state& k, int64_t now_ms) const {
    return now_ms - k.last_unstable_ms >= limits_.window_ms;
  }

  limits limits_;
  std::map<std::string, key_state, std::less<>> keys_;
  std::size_t flapping_ = 0;
};

}  // namespace status_store
