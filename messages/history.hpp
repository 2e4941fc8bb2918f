#pragma once
// What the status view answers about the past: a key's transitions (actors/policy/status_history.hpp
// keeps them), the keys that flap (actors/policy/flap_rule.hpp) and the counts the metrics show, with
// their inspect functions.
#include "messages/status.hpp"

#include "caf/meta/type_name.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace status_store {

/// One status of a connector or task that differed from its previous one, as read from the topic.
struct status_transition {
  status_state state = status_state::unassigned;
  std::string worker_id;
  int32_t generation = 0;
  std::string trace_first_line;  // empty when the status had no trace
  int64_t timestamp_ms = 0;      // the record's timestamp (ms since epoch)
  bool own = false;              // written by this store (its writer header)
  friend bool operator==(const status_transition&, const status_transition&) = default;
};

/// A connector's or task's transitions, oldest first, and how far back the view's history reaches
/// over all keys: older transitions were compacted away before the replay, or evicted by the caps.
struct key_history {
  std::vector<status_transition> transitions;
  bool any_kept = false;           // whether the view keeps any transition at all
  int64_t reaches_back_to_ms = 0;  // the oldest kept transition's timestamp, when any_kept
  friend bool operator==(const key_history&, const key_history&) = default;
};

/// A connector (is_task false) or task that is flapping, and since when (the record that started it).
struct flapping_key {
  std::string connector;
  bool is_task = false;
  int32_t task = 0;
  int64_t since_ms = 0;
  friend bool operator==(const flapping_key&, const flapping_key&) = default;
};

/// What the metrics count from the history for one connector (docs/metrics.md).
struct connector_history_counts {
  std::string connector;
  uint64_t failed_transitions = 0;  // entries into FAILED of the connector and its tasks since the store started
  uint32_t flapping_keys = 0;       // of the connector and its tasks, how many flap now
  friend bool operator==(const connector_history_counts&, const connector_history_counts&) = default;
};

/// The counts for every connector the view holds a status of, or a count for, in name order: one
/// answer, so a scrape sees the counter and the gauge of the same moment.
struct history_counts {
  std::vector<connector_history_counts> connectors;
  friend bool operator==(const history_counts&, const history_counts&) = default;
};

// status_state travels as its underlying byte.
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, status_transition& x) {
  return f(caf::meta::type_name("status_transition"), reinterpret_cast<uint8_t&>(x.state), x.worker_id, x.generation,
           x.trace_first_line, x.timestamp_ms, x.own);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, key_history& x) {
  return f(caf::meta::type_name("key_history"), x.transitions, x.any_kept, x.reaches_back_to_ms);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, flapping_key& x) {
  return f(caf::meta::type_name("flapping_key"), x.connector, x.is_task, x.task, x.since_ms);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, connector_history_counts& x) {
  return f(caf::meta::type_name("connector_history_counts"), x.connector, x.failed_transitions, x.flapping_keys);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, history_counts& x) {
  return f(caf::meta::type_name("history_counts"), x.connectors);
}

}  // namespace status_store
