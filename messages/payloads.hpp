#pragma once
// The payloads of status-store's messages: plain structs with no actor framework and no Kafka inside,
// so pure logic (actors/policy/) and tests can use them alone. The messages that carry them, and the
// actor interfaces, are in messages/protocol.hpp.
#include "messages/alert.hpp"
#include "messages/delivery_outcome.hpp"
#include "messages/status.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace status_store {

/// One accepted status update, already encoded by the caller's thread (the codec runs once, off the
/// actors). `safe` marks Connect's putSafe: written only if the known value allows it.
struct status_update {
  std::string key;
  bool tombstone = false;
  std::string value;  // JSON bytes; empty for a tombstone
  bool safe = false;
  std::string worker_id;  // for putSafe's rule; empty for topic statuses
  int32_t generation = 0;
  // steady_clock time of the facade's put (ns since its epoch, CAF's actor clock): the pending age and
  // the put-to-ack latency then include the wait in the coalescer's mailbox. 0: the accept time.
  int64_t put_ns = 0;
  friend bool operator==(const status_update&, const status_update&) = default;
};

/// What a reader saw on the topic for a key: the "known value" putSafe decides on. `own`: this store
/// instance wrote the record (its writer header, see messages/record_writer_header.hpp), whether the
/// send was acknowledged, timed out or is still in doubt.
struct observed_status {
  std::string key;
  bool tombstone = false;
  std::string worker_id;
  int32_t generation = 0;
  bool own = false;
  friend bool operator==(const observed_status&, const observed_status&) = default;
};

/// One record for the producer. `send_id` comes back in the delivery report, so a late report for
/// an older send of the same key can never be mistaken for the current one.
struct outgoing_record {
  std::string key;
  bool tombstone = false;
  std::string value;
  uint64_t send_id = 0;
  friend bool operator==(const outgoing_record&, const outgoing_record&) = default;
};

/// One delivery report, judged by the producer client where the Kafka client hands it over: the write
/// path decides on `verdict`; `error` and `error_text` are the client's code and text, for logs only.
struct delivery_result {
  std::string key;
  uint64_t send_id = 0;
  int32_t error = 0;  // 0 = acknowledged
  int32_t partition = -1;
  std::string error_text;  // the client's text; empty on success
  delivery_verdict verdict;
  // When the client reported it (steady clock, ns; 0: unknown, the receiver's time stands in), and how
  // long the record was inside the client, from produce to this report (µs; -1: unknown). The
  // coalescer splits each acknowledged update's time into hops with them (write_hops below).
  int64_t reported_ns = 0;
  int64_t queue_us = -1;
  friend bool operator==(const delivery_result&, const delivery_result&) = default;
};

/// Ask the scheduler for the backoff of retry `retry_count` (0 = first retry) of `key`; the due notice
/// carries the same `ticket` back (the failed send's id), so a timer of a retry that was abandoned
/// meanwhile can never trigger a later retry of the same key early.
struct retry_request {
  std::string key;
  uint32_t retry_count = 0;
  uint64_t ticket = 0;
  friend bool operator==(const retry_request&, const retry_request&) = default;
};

/// The coalescer's cumulative counters and current gauges (it owns the truth; the metrics actor
/// serves it). Conservation law: accepted = success + failure + coalesced + dropped_stale + pending.
struct store_counters {
  uint64_t accepted = 0;                 // updates taken in by put/putSafe/topic put/delete
  uint64_t success = 0;                  // status-update-success-total
  uint64_t failure = 0;                  // status-update-failure-total
  uint64_t authentication_failure = 0;   // status-update-authentication-failure-total: failures (counted in
                                         // failure too) because the broker refused credentials or TLS
  uint64_t retry = 0;                    // status-update-retry-total: re-sends after a retriable error
  uint64_t attempt_errors = 0;           // status-update-attempt-error-total: sends that ended in a retriable
                                         // error, whether retried, overtaken by a newer value or given up
  uint64_t coalesced = 0;                // status-update-coalesced-total: replaced by a newer value unsent
  uint64_t dropped_stale = 0;            // status-update-stale-dropped-total: putSafe refused
  uint64_t pending = 0;                  // accepted and not yet resolved
  uint64_t in_flight = 0;                // keys with a record inside the producer now
  uint64_t waiting_retry = 0;            // keys waiting for their backoff to elapse
  uint64_t held = 0;                     // keys whose record is held while no broker is reachable
  int64_t oldest_unacked_since_ns = -1;  // clock time of the oldest unresolved update; -1 none
  // Accept-to-acknowledgement time of written updates since start (coalesced ones are not written);
  // -1 until the first acknowledgement. From a log-linear histogram: at most 6.25 % high.
  int64_t ack_latency_p50_us = -1;
  int64_t ack_latency_p99_us = -1;
  int64_t ack_latency_max_us = -1;
  friend bool operator==(const store_counters&, const store_counters&) = default;
};

/// One record read from the status topic. `own`: it carries this store instance's writer header.
struct consumed_record {
  std::string key;
  bool tombstone = false;
  std::string value;
  int32_t partition = -1;
  int64_t offset = -1;
  bool own = false;
  int64_t timestamp_ms = -1;  // the message's timestamp (create or log-append time); -1 when it has none
  friend bool operator==(const consumed_record&, const consumed_record&) = default;
};

/// What the view knows of one connector (Connect's get(connector), getAll(connector) and
/// getAllTopics(connector) in one answer).
struct connector_view {
  std::string name;                  // the connector asked about
  bool found = false;                // a connector status has been read back
  connector_status connector;        // valid when found
  std::vector<task_status> tasks;    // by task id; may be non-empty when !found
  std::vector<topic_status> topics;  // by topic name
  friend bool operator==(const connector_view&, const connector_view&) = default;
};

/// The read side's counters, published by the status view.
struct view_counters {
  uint64_t records_read = 0;    // status-record-read-total
  uint64_t read_errors = 0;     // status-record-read-errors-total: malformed records skipped
  uint64_t replay_records = 0;  // records read by the start-up replay
  int64_t replay_ms = -1;       // duration of the start-up replay; -1 until it completes
  friend bool operator==(const view_counters&, const view_counters&) = default;
};

/// One acknowledged update's put-to-acknowledgement time (µs) and the five hops it is made of, which
/// add up to it (docs/metrics.md#write-path-hops): waiting in the ingest table (put until the coalescer
/// took it); waiting for its key (taken until handed on to the producer: behind the key's record in
/// flight, a retry's backoff, an outage hold); to the producer (handed on until the Kafka client took
/// it: the coalescer's burst, the producer actor's mailbox); inside the producer (until its delivery
/// report: linger, the broker's round trip); back to the coalescer (the report until the coalescer
/// handled it: the poll thread's batch, the coalescer's mailbox).
struct ack_timing {
  uint64_t put_to_ack_us = 0;
  uint64_t ingest_wait_us = 0;
  uint64_t key_wait_us = 0;
  uint64_t to_producer_us = 0;
  uint64_t producer_queue_us = 0;
  uint64_t report_to_coalescer_us = 0;
  friend bool operator==(const ack_timing&, const ack_timing&) = default;
};

/// What the coalescer publishes after each mailbox burst: its cumulative counters and gauges, and
/// the timings of the updates acknowledged since its previous report. The metrics actor keeps the
/// latency histograms and derives the quantiles (ack_latency_* above, write_hops below).
struct write_side_report {
  store_counters counters;
  std::vector<ack_timing> acks;
  friend bool operator==(const write_side_report&, const write_side_report&) = default;
};

/// The bounds (µs) of the latency histograms as Prometheus scrapes them (`_bucket{le=...}` in
/// seconds), from 10 µs to 10 s, 1-2.5-5 per decade: hops take microseconds, outages seconds.
inline constexpr std::array<uint64_t, 19> latency_bucket_bounds_us{
    10,    25,    50,     100,    250,    500,     1000,    2500,    5000,    10000,
    25000, 50000, 100000, 250000, 500000, 1000000, 2500000, 5000000, 10000000};

/// A latency histogram as operators see it: how many values were at or below each bound of
/// latency_bucket_bounds_us (cumulative, exact), how many in all and their sum, and quantiles (at
/// most 6.25 % high; max exact), -1 before the first value.
struct latency_distribution {
  std::vector<uint64_t> at_or_below;
  uint64_t count = 0;
  uint64_t sum_us = 0;
  int64_t p50_us = -1;
  int64_t p99_us = -1;
  int64_t p999_us = -1;
  int64_t max_us = -1;
  friend bool operator==(const latency_distribution&, const latency_distribution&) = default;
};

/// The write path's hops of the acknowledged updates since start (ack_timing's five parts).
struct write_hops {
  latency_distribution ingest_wait;
  latency_distribution key_wait;
  latency_distribution to_producer;
  latency_distribution producer_queue;
  latency_distribution report_to_coalescer;
  friend bool operator==(const write_hops&, const write_hops&) = default;
};

/// A consistent snapshot of every metric, as operators see it.
struct metrics_snapshot {
  store_counters counters;
  int64_t oldest_unacked_age_ms = 0;  // 0 when nothing is pending
  view_counters view;
  // status-update-after-stop-total: updates refused because the store was stopping or stopped. Not
  // accepted, so outside the conservation law; counted by the ingest table, filled in by the facade.
  uint64_t updates_after_stop = 0;
  alert_counters alerts;  // the webhook's, from the alert sender; all 0 without one
  write_hops hops;        // where the acknowledged updates' time went, hop by hop
  friend bool operator==(const metrics_snapshot&, const metrics_snapshot&) = default;
};

/// What stop() could not deliver within the drain timeout.
struct drain_report {
  uint64_t failed = 0;                   // updates counted failed at the deadline
  std::vector<std::string> failed_keys;  // their keys (each key once)
  friend bool operator==(const drain_report&, const drain_report&) = default;
};

}  // namespace status_store
