#pragma once
// The event streams' counts (http_listener::event_streams()) as metrics, named and described as the
// store's are (app/store/metric_names.hpp), for GET /metrics. A table of their own: they are the
// listener's of `status-store run`, not the store's, so the embedders' metrics reporter has none.
// GET /status-store/v1/metrics shows the same counts as its "event_streams" object. docs/metrics.md.
#include "app/rest/http_listener.hpp"
#include "app/store/metric_names.hpp"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace status_store {

/// One family: its name, kind and help, and which count it shows.
struct event_stream_metric {
  std::string_view name;
  std::string_view kind;
  std::string_view help;
  uint64_t event_stream_counts::*count;
};

/// The families, in the order /metrics prints them.
// clang-format off
inline constexpr std::array<event_stream_metric, 5> event_stream_metrics{{
    {"status-event-streams-open", "gauge", "Event streams (GET /status-store/v1/events) open now", &event_stream_counts::open},
    {"status-event-streams-max", "gauge", "Event streams that may be open at once (--max-event-streams)", &event_stream_counts::max},
    {"status-event-streams-opened-total", "counter", "Event streams opened", &event_stream_counts::opened_total},
    {"status-event-streams-refused-total", "counter", "Event stream requests answered with a 503 because --max-event-streams were open", &event_stream_counts::refused_total},
    {"status-event-streams-dropped-total", "counter", "Event streams closed for falling behind: more than their queue bound unwritten, or one write longer than the write timeout", &event_stream_counts::dropped_total},
}};
// clang-format on

inline std::vector<metric_sample> event_stream_samples(const event_stream_counts& counts) {
  std::vector<metric_sample> samples;
  for (const auto& m : event_stream_metrics)
    samples.push_back({m.name, m.kind, static_cast<double>(counts.*m.count), m.help});
  return samples;
}

}  // namespace status_store
