#pragma once
// The coalescer: per-key latest-status coalescing, the store's entry point.
//
// A shell of message handlers around the per-key rules of actors/policy/coalescing_table.hpp: it
// takes updates, delivery reports, due retries and read-backs in, and ships what the table queued —
// one produce batch, one schedule batch and one counters publish per mailbox burst (a self-sent tick).
// It also answers flush (once every update accepted before it is resolved) and stop (drain, then
// count what is left as failed at the deadline). Rules and their tests: docs/retries.md and
// tests/actor/coalescer_test.cpp, tests/unit/coalescing_table_test.cpp.
#include "messages/protocol.hpp"

#include <cstdint>

namespace status_store {

struct coalescer_config {
  uint32_t max_retries = 5;  // status.storage.retry.max.retries
};

/// Spawns the coalescer; it introduces itself to the producer and the scheduler (report_to).
coalescer_actor spawn_coalescer(caf::actor_system& system, coalescer_config config, producer_actor producer,
                                retry_scheduler_actor scheduler, metrics_actor metrics);

}  // namespace status_store
