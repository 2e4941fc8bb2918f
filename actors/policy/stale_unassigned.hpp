#pragma once
// Which task status the view does not apply (KAFKA-12525): a read-back UNASSIGNED of no newer
// generation than the task's RUNNING is a stale write of a worker that lost the task in a rebalance,
// not the task's state. One rule for the status view and `watch`'s flapping marks (app/flap_marks.hpp).
#include "messages/status.hpp"

#include <cstdint>

namespace status_store {

/// Whether a task's `incoming` state and generation, read over its `current` ones, are to be ignored.
inline bool is_stale_unassigned(status_state current, int32_t current_generation, status_state incoming,
                                int32_t incoming_generation) {
  return incoming == status_state::unassigned && current == status_state::running &&
         current_generation >= incoming_generation;
}

}  // namespace status_store
