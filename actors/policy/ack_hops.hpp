#pragma once
// Splits one acknowledged update's put-to-acknowledgement time into the hops of the write path
// (ack_timing, messages/payloads.hpp) from the instants the coalescer keeps and the delivery report
// carries. Instants come from different threads' reads of one steady clock, and one is derived (the
// Kafka client's produce time, from its own queue time), so each is clamped into order: the hops are
// never negative and add up to the whole (each cut to whole µs, so to within a µs per hop). Pure
// logic: no actor, no clock.
#include "messages/payloads.hpp"

#include <algorithm>
#include <cstdint>

namespace status_store {

/// The instants of one acknowledged update, in ns of the steady clock.
struct ack_instants {
  int64_t put_ns = 0;        // the caller's put (or the coalescer's accept, for an actor's put)
  int64_t accepted_ns = 0;   // the coalescer took it in
  int64_t handed_on_ns = 0;  // its last send was queued for the producer
  int64_t reported_ns = 0;   // the Kafka client reported the acknowledgement (0: unknown)
  int64_t queue_us = -1;     // the record's time inside the Kafka client (-1: unknown)
  int64_t handled_ns = 0;    // the coalescer handled the report
};

inline ack_timing ack_hops(const ack_instants& t) {
  const auto us = [](int64_t from, int64_t to) { return static_cast<uint64_t>(to - from) / 1000; };
  const int64_t put = t.put_ns;
  const int64_t accepted = std::max(put, t.accepted_ns);
  const int64_t handed_on = std::max(accepted, t.handed_on_ns);
  const int64_t handled = std::max(handed_on, t.handled_ns);
  const int64_t reported = std::clamp(t.reported_ns > 0 ? t.reported_ns : handled, handed_on, handled);
  // Unknown queue time: all of handed-on-to-report counts as the producer's.
  const int64_t produced = std::clamp(t.queue_us >= 0 ? reported - t.queue_us * 1000 : handed_on, handed_on, reported);
  ack_timing out;
  out.ingest_wait_us = us(put, accepted);
  out.key_wait_us = us(accepted, handed_on);
  out.to_producer_us = us(handed_on, produced);
  out.producer_queue_us = us(produced, reported);
  out.report_to_coalescer_us = us(reported, handled);
  // The whole in ns, then µs: the parts, each cut to whole µs, may add up to a little less.
  out.put_to_ack_us = us(put, handled);
  return out;
}

}  // namespace status_store
