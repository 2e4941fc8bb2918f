#pragma once
// The HTTP listener's counts (http_listener::counts(): its connections and event streams) as metrics,
// named and described as the store's are (app/store/metric_names.hpp), for GET /metrics. A table of
// their own: they are the listener's of `status-store run`, not the store's, so the embedders' metrics
// reporter has none. GET /status-store/v1/metrics shows the same counts as its "connections" and
// "event_streams" objects. docs/metrics.md#the-http-listener.
#include "app/rest/http_listener.hpp"
#include "app/store/metric_names.hpp"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace status_store {

/// One family: its name, kind and help, and which count it shows.
struct listener_metric {
  std::string_view name;
  std::string_view kind;
  std::string_view help;
  uint64_t listener_counts::*count;
};

/// The families, in the order /metrics prints them.
// clang-format off
inline constexpr std::array<listener_metric, 9> listener_metrics{{
    {"status-http-connections-open", "gauge", "HTTP connections holding one of the listener's slots now (event streams included)", &listener_counts::connections_open},
    {"status-http-connections-max", "gauge", "HTTP connections that may hold a slot at once (--max-connections)", &listener_counts::connections_max},
    {"status-http-health-lane-open", "gauge", "HTTP connections past a bound that may still send one health check, open now", &listener_counts::health_lane_open},
    {"status-http-connections-shed-total", "counter", "HTTP connections answered with the overload 503 (closed, on a TLS listener): past the slots and the health lane, or not a health check on the lane", &listener_counts::shed_total},
    {"status-event-streams-open", "gauge", "Event streams (GET /status-store/v1/events) open now", &listener_counts::streams_open},
    {"status-event-streams-max", "gauge", "Event streams that may be open at once (--max-event-streams)", &listener_counts::streams_max},
    {"status-event-streams-opened-total", "counter", "Event streams opened", &listener_counts::streams_opened_total},
    {"status-event-streams-refused-total", "counter", "Event stream requests answered with a 503 because --max-event-streams were open", &listener_counts::streams_refused_total},
    {"status-event-streams-dropped-total", "counter", "Event streams closed for falling behind: more than their queue bound unwritten, or one write longer than the write timeout", &listener_counts::streams_dropped_total},
}};
// clang-format on

inline std::vector<metric_sample> listener_samples(const listener_counts& counts) {
  std::vector<metric_sample> samples;
  for (const auto& m : listener_metrics)
    samples.push_back({m.name, m.kind, static_cast<double>(counts.*m.count), m.help});
  return samples;
}

}  // namespace status_store
