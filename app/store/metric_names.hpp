#pragma once
// The names operators see, one place. The first three are the KIP's, in its group
// "status-backing-store-metrics"; the rest are status-store's additions in the same style.
#include "messages/protocol.hpp"

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace status_store {

inline constexpr std::string_view metric_group = "status-backing-store-metrics";

struct metric_sample {
  std::string_view name;
  std::string_view kind;  // "counter" or "gauge"
  std::string_view help;
  double value;
};

/// Every metric of a snapshot, with its name, kind and help text.
inline std::vector<metric_sample> metric_samples(const metrics_snapshot& s) {
  const auto& c = s.counters;
  auto d = [](auto v) { return static_cast<double>(v); };
  auto ms = [](int64_t micros) { return micros < 0 ? -1.0 : static_cast<double>(micros) / 1000.0; };
  return {
      {"status-update-success-total", "counter", "Status updates acknowledged by Kafka", d(c.success)},
      {"status-update-failure-total", "counter", "Status updates given up after all retries or a non-retriable error",
       d(c.failure)},
      {"status-update-authentication-failure-total", "counter",
       "Status updates failed because the broker refused the client's credentials or TLS set-up (also in "
       "status-update-failure-total)",
       d(c.authentication_failure)},
      {"status-update-retry-total", "counter", "Re-sends of status updates after a retriable error", d(c.retry)},
      {"status-update-coalesced-total", "counter",
       "Status updates replaced by a newer value for the same key before being written", d(c.coalesced)},
      {"status-update-stale-dropped-total", "counter",
       "putSafe updates refused because a newer generation of another worker is known", d(c.dropped_stale)},
      {"status-update-accepted-total", "counter", "Status updates accepted by the store", d(c.accepted)},
      {"status-update-after-stop-total", "counter",
       "Status updates refused because the store was stopping or stopped (puts after stop())", d(s.updates_after_stop)},
      {"status-update-pending", "gauge", "Accepted status updates not yet acknowledged, failed or replaced",
       d(c.pending)},
      {"status-update-in-flight", "gauge", "Keys with a record inside the producer", d(c.in_flight)},
      {"status-update-waiting-retry", "gauge", "Keys waiting for their retry backoff to elapse", d(c.waiting_retry)},
      {"status-update-held", "gauge", "Keys whose record is held because no broker is reachable (outage hold)",
       d(c.held)},
      {"status-update-oldest-unacked-age-ms", "gauge", "Age of the oldest unacknowledged status update in milliseconds",
       d(s.oldest_unacked_age_ms)},
      {"status-update-ack-latency-p50-ms", "gauge",
       "Median time from accepting a status update to its acknowledgement, in milliseconds, since start (-1 before the "
       "first)",
       ms(c.ack_latency_p50_us)},
      {"status-update-ack-latency-p99-ms", "gauge",
       "99th percentile of the time from accepting a status update to its acknowledgement, in milliseconds, since "
       "start (-1 before the first)",
       ms(c.ack_latency_p99_us)},
      {"status-update-ack-latency-max-ms", "gauge",
       "Longest time from accepting a status update to its acknowledgement, in milliseconds, since start (-1 before "
       "the first)",
       ms(c.ack_latency_max_us)},
      {"status-record-read-total", "counter", "Records read from the status topic", d(s.view.records_read)},
      {"status-record-read-errors-total", "counter",
       "Malformed status records skipped (logged with their offset, at most 10 per rule a minute, then a count)",
       d(s.view.read_errors)},
      {"status-replay-records", "gauge", "Records read by the start-up replay", d(s.view.replay_records)},
      {"status-replay-duration-ms", "gauge", "Duration of the start-up replay in milliseconds (-1 while it runs)",
       d(s.view.replay_ms)},
  };
}

}  // namespace status_store
