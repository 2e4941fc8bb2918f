#pragma once
// The coalescer: per-key latest-status coalescing, the store's entry point.
//
// Rules (each pinned by a test in tests/actor/coalescer_test.cpp):
// - At most one record per key is inside the producer. An update that arrives while its key is busy
//   (in flight or backing off) waits; a newer one replaces it, and the replaced one counts as
//   coalesced. So per-key order holds without a global max.in.flight=1 and different keys pipeline.
// - A retriable failure asks the retry scheduler for a backoff; when it is due, the *latest* value
//   of the key is sent, so a retry can never overwrite a newer value. A newer value sent this way
//   continues the key's failure episode: its retry count is not reset (the broker is still sick, and
//   resetting would defeat the backoff).
// - After `max_retries` retries, or at once on a non-retriable error, the update fails (counted and
//   logged with key, attempts and error); a value waiting behind it is then sent fresh.
// - putSafe (Connect's rule): written only if there is no known value for the key, the known value is
//   from the same worker, or its generation is <= the new one; otherwise dropped and counted. The
//   known value is the last one read back (observe) or acknowledged for the key. It is checked when
//   the update is accepted and again before every retry.
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
