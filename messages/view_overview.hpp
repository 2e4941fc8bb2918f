#pragma once
// What the status page shows of the view in one answer (GET /status-store/v1/overview): every
// connector with its tasks, when each connector's and task's status last changed, and what flaps now.
// Plain structs; their inspect is in messages/protocol.hpp.
#include "messages/history.hpp"
#include "messages/payloads.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace status_store {

/// When a connector's or task's status last changed: its newest transition kept in the history.
struct key_change {
  std::string key;  // the status key, e.g. "status-task-my-src-0"
  int64_t last_change_ms = 0;
  friend bool operator==(const key_change&, const key_change&) = default;
};

struct view_overview {
  std::vector<connector_view> connectors;  // as get all: the connectors with a status, by name
  std::vector<key_change> changes;         // the keys with a transition kept, in key order
  std::vector<flapping_key> flapping;      // in key order
  friend bool operator==(const view_overview&, const view_overview&) = default;
};

}  // namespace status_store
