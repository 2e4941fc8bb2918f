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
// - A retry is abandoned (counted as stale-dropped) when the topic shows its key has moved on: another
//   writer's tombstone was read back, or another writer's record of another worker's newer generation
//   was (putSafe's rule, re-checked before every retry of a connector or task status, plain puts too).
//   Our own records read back — acknowledged, timed out but written, or duplicated by librdkafka — are
//   recognised by the writer header (messages/record_writer_header.hpp) and never abandon a retry.
//   Connect instead abandons every retry whose generation differs from the last one the store sent;
//   after an incremental cooperative rebalance that drops the only write of a task this worker still
//   owns (a FAILED status, say), which nobody rewrites. The per-key rule keeps the guard's purpose —
//   a stale retry must not overwrite the new owner — without that loss. See docs/retries.md.
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
