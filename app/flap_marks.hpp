#pragma once
// What `status-store watch` marks: a connector or task that starts or stops flapping. watch reads the
// topic itself (no store, no view), so this applies the view's rule to the records it reads: the
// flap rule (actors/policy/flap_rule.hpp) on each record's timestamp, the previous state as the view
// keeps it (a stale UNASSIGNED of a RUNNING task ignored, KAFKA-12525), tombstones forgetting the key
// and a connector's also its tasks. Pure logic: the caller passes the times.
#include "actors/policy/flap_rule.hpp"
#include "actors/policy/stale_unassigned.hpp"
#include "messages/codec/status_key_format.hpp"
#include "messages/status.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace status_store {

class flap_marks {
 public:
  explicit flap_marks(flap_rule::limits limits) : rule_{limits} {}

  /// A connector or task status `value` of `key` (the record's key `record_key`) at `at_ms`.
  flap_rule::change status(const parsed_key& key, std::string_view record_key, const status_value& value,
                           int64_t at_ms);
  /// Whether the view would not apply this task status: a stale UNASSIGNED over the task's RUNNING
  /// (KAFKA-12525); false for connectors and unknown keys. Ask before status(), which records it.
  bool is_stale(const parsed_key& key, std::string_view record_key, const status_value& value) const;
  /// A connector or task tombstone: the key is forgotten, a connector's tasks with it.
  void tombstone(const parsed_key& key, std::string_view record_key);
  /// The record keys that have been stable for the window by `now_ms` and so stop flapping.
  std::vector<std::string> take_recovered(int64_t now_ms) { return rule_.take_recovered(now_ms); }
  std::size_t flapping_count() const { return rule_.flapping_count(); }

 private:
  struct last_status {
    status_state state;
    int32_t generation;
  };
  flap_rule rule_;
  std::map<std::string, last_status, std::less<>> last_;                      // by record key
  std::map<std::string, std::map<int32_t, std::string>, std::less<>> tasks_;  // connector -> task -> record key
};

}  // namespace status_store
