#pragma once
// The names operators see, one place. The first three are the KIP's, in its group
// "status-backing-store-metrics"; the rest are status-store's additions in the same style.
#include "messages/protocol.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace status_store {

inline constexpr std::string_view metric_group = "status-backing-store-metrics";

struct metric_sample {
  std::string_view name;
  std::string_view kind;  // "counter" or "gauge"
  double value;
  std::string_view help;
};

/// Every metric of a snapshot, with its name, kind and help text.
inline std::vector<metric_sample> metric_samples(const metrics_snapshot& s) {
  const auto& c = s.counters;
  auto d = [](auto v) { return static_cast<double>(v); };
  auto ms = [](int64_t micros) { return micros < 0 ? -1.0 : static_cast<double>(micros) / 1000.0; };
  constexpr std::string_view counter = "counter", gauge = "gauge";
  const auto& h = s.hops;
  return {
      // One metric a line: a table to read down.
      // clang-format off
      {"status-update-success-total", counter, d(c.success), "Status updates acknowledged by Kafka"},
      {"status-update-failure-total", counter, d(c.failure), "Status updates given up after all retries or a non-retriable error"},
      {"status-update-authentication-failure-total", counter, d(c.authentication_failure), "Status updates failed because the broker refused the client's credentials or TLS set-up (also in status-update-failure-total)"},
      {"status-update-retry-total", counter, d(c.retry), "Re-sends of status updates after a retriable error"},
      {"status-update-attempt-error-total", counter, d(c.attempt_errors), "Sends of status updates that ended in a retriable error (timed out, not sent, broker trouble), whether the value was then re-sent, overtaken by a newer value of its key or given up"},
      {"status-update-coalesced-total", counter, d(c.coalesced), "Status updates replaced by a newer value for the same key before being written"},
      {"status-update-stale-dropped-total", counter, d(c.dropped_stale), "putSafe updates refused because a newer generation of another worker is known"},
      {"status-update-accepted-total", counter, d(c.accepted), "Status updates accepted by the store"},
      {"status-update-after-stop-total", counter, d(s.updates_after_stop), "Status updates refused because the store was stopping or stopped (puts after stop())"},
      {"status-update-pending", gauge, d(c.pending), "Accepted status updates not yet acknowledged, failed or replaced"},
      {"status-update-in-flight", gauge, d(c.in_flight), "Keys with a record inside the producer"},
      {"status-update-waiting-retry", gauge, d(c.waiting_retry), "Keys waiting for their retry backoff to elapse"},
      {"status-update-held", gauge, d(c.held), "Keys whose record is held because no broker is reachable (outage hold)"},
      {"status-update-oldest-unacked-age-ms", gauge, d(s.oldest_unacked_age_ms), "Age of the oldest unacknowledged status update in milliseconds"},
      {"status-update-ack-latency-p50-ms", gauge, ms(c.ack_latency_p50_us), "Median time from accepting a status update to its acknowledgement, in milliseconds, since start (-1 before the first)"},
      {"status-update-ack-latency-p99-ms", gauge, ms(c.ack_latency_p99_us), "99th percentile of the time from accepting a status update to its acknowledgement, in milliseconds, since start (-1 before the first)"},
      {"status-update-ack-latency-max-ms", gauge, ms(c.ack_latency_max_us), "Longest time from accepting a status update to its acknowledgement, in milliseconds, since start (-1 before the first)"},
      {"status-update-ingest-wait-p50-ms", gauge, ms(h.ingest_wait.p50_us), "Median time acknowledged status updates waited in the ingest table, from put until the coalescer took them, in milliseconds (-1 before the first)"},
      {"status-update-ingest-wait-p99-ms", gauge, ms(h.ingest_wait.p99_us), "99th percentile of the time acknowledged status updates waited in the ingest table, in milliseconds (-1 before the first)"},
      {"status-update-ingest-wait-max-ms", gauge, ms(h.ingest_wait.max_us), "Longest time an acknowledged status update waited in the ingest table, in milliseconds (-1 before the first)"},
      {"status-update-key-wait-p50-ms", gauge, ms(h.key_wait.p50_us), "Median time acknowledged status updates waited for their key, from the coalescer taking them until handed on to the producer (behind the key's two records in flight, a retry's backoff, an outage hold), in milliseconds (-1 before the first)"},
      {"status-update-key-wait-p99-ms", gauge, ms(h.key_wait.p99_us), "99th percentile of the time acknowledged status updates waited for their key, in milliseconds (-1 before the first)"},
      {"status-update-key-wait-max-ms", gauge, ms(h.key_wait.max_us), "Longest time an acknowledged status update waited for its key, in milliseconds (-1 before the first)"},
      {"status-update-to-producer-p50-ms", gauge, ms(h.to_producer.p50_us), "Median time from the coalescer handing a record on until the Kafka client took it (the coalescer's burst, the producer actor's mailbox), in milliseconds (-1 before the first)"},
      {"status-update-to-producer-p99-ms", gauge, ms(h.to_producer.p99_us), "99th percentile of the time from the coalescer handing a record on until the Kafka client took it, in milliseconds (-1 before the first)"},
      {"status-update-to-producer-max-ms", gauge, ms(h.to_producer.max_us), "Longest time from the coalescer handing a record on until the Kafka client took it, in milliseconds (-1 before the first)"},
      {"status-update-producer-queue-p50-ms", gauge, ms(h.producer_queue.p50_us), "Median time acknowledged records spent inside the Kafka client, from produce until the delivery report (linger, the broker's round trip), in milliseconds (-1 before the first)"},
      {"status-update-producer-queue-p99-ms", gauge, ms(h.producer_queue.p99_us), "99th percentile of the time acknowledged records spent inside the Kafka client, in milliseconds (-1 before the first)"},
      {"status-update-producer-queue-max-ms", gauge, ms(h.producer_queue.max_us), "Longest time an acknowledged record spent inside the Kafka client, in milliseconds (-1 before the first)"},
      {"status-update-report-to-coalescer-p50-ms", gauge, ms(h.report_to_coalescer.p50_us), "Median time from a delivery report until the coalescer handled it (the poll thread's batch, the coalescer's mailbox), in milliseconds (-1 before the first)"},
      {"status-update-report-to-coalescer-p99-ms", gauge, ms(h.report_to_coalescer.p99_us), "99th percentile of the time from a delivery report until the coalescer handled it, in milliseconds (-1 before the first)"},
      {"status-update-report-to-coalescer-max-ms", gauge, ms(h.report_to_coalescer.max_us), "Longest time from a delivery report until the coalescer handled it, in milliseconds (-1 before the first)"},
      {"status-record-read-total", counter, d(s.view.records_read), "Records read from the status topic"},
      {"status-record-read-errors-total", counter, d(s.view.read_errors), "Malformed status records skipped (logged with their offset, at most 10 per rule a minute, then a count)"},
      {"status-replay-records", gauge, d(s.view.replay_records), "Records read by the start-up replay"},
      {"status-replay-duration-ms", gauge, d(s.view.replay_ms), "Duration of the start-up replay in milliseconds (-1 while it runs)"},
      {"status-alert-raised-total", counter, d(s.alerts.raised), "Webhook alerts raised by the status view (FAILED, recovered, flapping started or stopped)"},
      {"status-alert-sent-total", counter, d(s.alerts.sent), "Webhook alerts the receiver answered with a 2xx"},
      {"status-alert-retry-total", counter, d(s.alerts.retried), "Re-sends of webhook alerts after no answer, a 408, a 429 or a 5xx"},
      {"status-alert-failure-total", counter, d(s.alerts.failed), "Webhook alerts given up after all retries or refused by the receiver (another 4xx)"},
      {"status-alert-dropped-total", counter, d(s.alerts.dropped), "Webhook alerts dropped unsent because the queue was full (the oldest waiting goes)"},
      {"status-alert-pending", gauge, d(s.alerts.pending), "Webhook alerts waiting, being sent or backing off"},
      // clang-format on
  };
}

/// A latency histogram of the write path's hops (Prometheus's histogram type: `_bucket{le=...}`,
/// `_sum` and `_count`, in seconds; latency_bucket_bounds_us), from the snapshot's write_hops. Each
/// acknowledged update is counted once in each; its five hops add up to its put-to-acknowledgement
/// time (docs/metrics.md#write-path-hops). The quantile gauges above carry the same stems.
struct histogram_metric {
  std::string_view name;
  std::string_view help;
  latency_distribution write_hops::*distribution;
};
// clang-format off
inline constexpr std::array<histogram_metric, 5> histogram_metrics{{
    {"status-update-ingest-wait-seconds", "Time acknowledged status updates waited in the ingest table, from put until the coalescer took them", &write_hops::ingest_wait},
    {"status-update-key-wait-seconds", "Time acknowledged status updates waited for their key, from the coalescer taking them until handed on to the producer", &write_hops::key_wait},
    {"status-update-to-producer-seconds", "Time from the coalescer handing a record on until the Kafka client took it", &write_hops::to_producer},
    {"status-update-producer-queue-seconds", "Time acknowledged records spent inside the Kafka client, from produce until the delivery report", &write_hops::producer_queue},
    {"status-update-report-to-coalescer-seconds", "Time from a delivery report until the coalescer handled it", &write_hops::report_to_coalescer},
}};
// clang-format on

/// One histogram of a snapshot as the metrics reporter hands it on: the family's name and help, the
/// cumulative count at each upper bound (seconds; the last bound is +Inf, the count), and the sum.
struct histogram_sample {
  std::string_view name;
  std::string_view help;
  std::vector<std::pair<double, uint64_t>> buckets;  // upper bound in seconds, values at or below it
  uint64_t count = 0;
  double sum_seconds = 0;
};

/// Every histogram of a snapshot, in histogram_metrics' order.
inline std::vector<histogram_sample> histogram_samples(const metrics_snapshot& s) {
  std::vector<histogram_sample> out;
  for (const auto& m : histogram_metrics) {
    const latency_distribution& d = s.hops.*m.distribution;
    histogram_sample sample{m.name, m.help, {}, d.count, static_cast<double>(d.sum_us) / 1e6};
    for (std::size_t i = 0; i < latency_bucket_bounds_us.size(); ++i)
      sample.buckets.emplace_back(static_cast<double>(latency_bucket_bounds_us[i]) / 1e6,
                                  i < d.at_or_below.size() ? d.at_or_below[i] : 0);
    sample.buckets.emplace_back(std::numeric_limits<double>::infinity(), d.count);
    out.push_back(std::move(sample));
  }
  return out;
}

/// A labelled family: one series per connector, task or state, rendered from the status view
/// (app/prometheus_text.hpp), not from the counters. Bounded by the keys the view holds.
struct labelled_metric {
  std::string_view name;
  std::string_view kind;
  std::string_view labels;  // the label names, comma-separated, in the order they are printed
  std::string_view help;
};

/// The labelled families, in the order /metrics prints them: the per-state ones from the view's
/// current statuses, then the history's per connector (status_view's counts, messages/history.hpp).
// clang-format off
inline constexpr labelled_metric state_metric_connector{"status-connector-status", "gauge", "connector,state", "1 for each connector with a status, its state (lower case) as a label"};
inline constexpr labelled_metric state_metric_task{"status-task-status", "gauge", "connector,task,state", "1 for each task with a status (of a connector with one), its state (lower case) as a label"};
inline constexpr labelled_metric state_metric_connectors{"status-connectors", "gauge", "state", "Connectors by their own state; degraded: RUNNING with a FAILED task (also counted as running)"};
inline constexpr labelled_metric state_metric_tasks{"status-tasks", "gauge", "state", "Tasks by state"};
inline constexpr labelled_metric history_metric_failed{"status-connector-failed-transitions-total", "counter", "connector", "Entries into FAILED of the connector and its tasks read since the store started (replayed records included; a repeated FAILED is not counted)"};
inline constexpr labelled_metric history_metric_flapping{"status-flapping-keys", "gauge", "connector", "The connector and those of its tasks that are flapping now (status.flap.threshold unstable transitions within status.flap.window.ms)"};
inline constexpr std::array<labelled_metric, 6> labelled_metrics{state_metric_connector, state_metric_task,
                                                                 state_metric_connectors, state_metric_tasks,
                                                                 history_metric_failed, history_metric_flapping};
// clang-format on

/// One series of a labelled family, as the metrics reporter hands it on: the family's name, kind and
/// help, the label values in the family's order, and the value.
struct labelled_sample {
  std::string_view name;
  std::string_view kind;
  std::string_view help;
  std::vector<std::pair<std::string_view, std::string>> labels;  // label name, value
  double value;
};

}  // namespace status_store
