#pragma once
// What the status view keeps of the past beside the current statuses: each key's transitions
// (status_history), which keys flap and since when (flap_rule), and per connector how often it or
// one of its tasks entered FAILED since the store started. Pure logic, like the rules it combines:
// the view passes each applied record's time and asks what has recovered (docs/operations.md).
#include "actors/policy/flap_rule.hpp"
#include "actors/policy/status_history.hpp"
#include "messages/history.hpp"
#include "messages/status.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace status_store {

/// The connector or task a status key names (the key itself is the topic's, e.g. "status-task-a-0").
struct status_key_ref {
  std::string_view key;
  std::string_view connector;
  std::optional<int32_t> task;
};

class history_keeper {
 public:
  history_keeper(status_history::limits history, flap_rule::limits flap) : history_{history}, flap_{flap} {}

  /// The view applied a status of `ref` that replaced `previous` (none: the key was unknown); whether
  /// the key started or stopped flapping with it.
  flap_rule::change applied(const status_key_ref& ref, std::optional<status_state> previous, const status_value& value,
                            int64_t at_ms, bool own);
  /// A tombstone of `key`: its history and flap state are gone.
  void erased(std::string_view key);
  /// A connector tombstone: also its FAILED count.
  void erased_connector(std::string_view connector) { failed_.erase(std::string{connector}); }

  /// Ends flapping for keys stable for the window by `now_ms`; returns those that stopped, in key order.
  std::vector<flapping_key> take_recovered(int64_t now_ms);
  /// When the first flapping key will have been stable for the window (ms since epoch); nullopt: none flaps.
  std::optional<int64_t> next_due() const { return flap_.next_due(); }

  key_history history(std::string_view key) const;
  /// Each key's last change (its newest transition's timestamp), in key order.
  std::vector<key_change> last_changes() const { return history_.last_changes(); }
  /// The flapping keys in key order.
  std::vector<flapping_key> flapping() const;
  /// Transitions into FAILED of the connector and its tasks since start (0 when none).
  uint64_t failed_transitions(std::string_view connector) const;
  /// Adds to `counts` (by connector) each connector's FAILED count and flapping keys; a connector
  /// with neither is left as `counts` has it.
  void add_counts(std::map<std::string, connector_history_counts, std::less<>>& counts) const;

 private:
  status_history history_;
  flap_rule flap_;
  std::map<std::string, flapping_key, std::less<>> flapping_since_;  // by key, as long as it flaps
  std::map<std::string, uint64_t, std::less<>> failed_;              // by connector
};

}  // namespace status_store
