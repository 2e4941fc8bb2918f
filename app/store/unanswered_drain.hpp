#pragma once
// What a shutdown drain lost when the coalescer did not answer it (it died, or cannot answer in time),
// counted from what the facade can still see, so that stop() never reports such a loss as success.
//
// Neither source alone is sound. The pending gauge of the last metrics snapshot misses every update
// still waiting in the ingest table, and every update the coalescer took from it after it last
// published its counters (it publishes once per mailbox burst: a coalescer killed between a take and
// its tick never publishes that take). The ingest table's size misses everything the coalescer holds
// (in flight, backing off, held for a broker). So the count is the last pending gauge, plus what the
// coalescer took beyond the accepted counter of that snapshot, plus what still waits (the table
// closed first, so it cannot grow). A stale snapshot only makes the count larger; with no snapshot at
// all, every update ever taken counts: an upper bound, never less than the loss. Updates put as
// messages straight to the coalescer (store::actor()) are in the snapshot but not in `taken`.
#include "messages/payloads.hpp"

#include <cstdint>

namespace status_store {

struct unanswered_drain_loss {
  uint64_t pending = 0;      // unresolved in the coalescer at its last published counters
  uint64_t unpublished = 0;  // taken from the ingest table after those counters were published
  uint64_t waiting = 0;      // never taken from the ingest table
  uint64_t total() const { return pending + unpublished + waiting; }
};

/// `last`: the write-side counters of the last snapshot (zero if none could be had); `taken`:
/// ingest_table::taken(); `waiting`: ingest_table::waiting(), the table closed.
inline unanswered_drain_loss unanswered_drain_loss_of(const store_counters& last, uint64_t taken, uint64_t waiting) {
  return {last.pending, taken > last.accepted ? taken - last.accepted : 0, waiting};
}

/// The snapshot once that loss is counted: the unpublished and waiting updates accepted, all of it
/// failed, nothing pending; the conservation law holds as it did in `s`.
inline void count_as_failed(metrics_snapshot& s, const unanswered_drain_loss& loss) {
  s.counters.accepted += loss.unpublished + loss.waiting;
  s.counters.failure += loss.total();
  s.counters.pending = s.counters.in_flight = s.counters.waiting_retry = s.counters.held = 0;
  s.counters.oldest_unacked_since_ns = -1;
  s.oldest_unacked_age_ms = 0;
}

}  // namespace status_store
