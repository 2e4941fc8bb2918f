#pragma once
// The retry scheduler: turns "retry n of key k" into a delayed self-message at the KIP's backoff.
// Nothing sleeps. Retries that fall due together are reported together, and only the earliest
// pending deadline has a timer armed: one delayed message can serve a whole outage's worth of keys.
#include "actors/policy/backoff_policy.hpp"
#include "messages/protocol.hpp"

#include <cstdint>

namespace status_store {

struct retry_scheduler_config {
  retry_settings retry;      // the worker's status.storage.retry.* settings, as configured
  uint64_t jitter_seed = 0;  // seeds the jitter; tests pass a fixed seed and replay its sequence
};

/// Returns the handle the coalescer holds (report_to, schedule); the fire timer stays the actor's own.
retry_scheduler_actor spawn_retry_scheduler(caf::actor_system& system, retry_scheduler_config config);

}  // namespace status_store
