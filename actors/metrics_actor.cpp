#include "actors/metrics_actor.hpp"

#include "actors/policy/latency_histogram.hpp"

#include "caf/actor_system.hpp"
#include "caf/stateful_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

namespace status_store {

namespace {

struct metrics_state {
  metrics_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.metrics";
  // Both sources publish cumulative values, so the latest report of each is the truth; the derived
  // gauges (latency quantiles, oldest unacknowledged age) are computed here.
  store_counters write_side;      // from the coalescer
  view_counters read_side;        // from the status view
  latency_histogram ack_latency;  // every put-to-acknowledgement latency the coalescer reported
};

using self_ptr = metrics_actor::stateful_pointer<metrics_state>;

metrics_actor::behavior_type metrics(self_ptr self) {
  return {
      [=](publish_atom, const write_side_report& report) {
        auto& st = self->state;
        st.write_side = report.counters;
        for (const uint64_t micros : report.ack_latencies_us) st.ack_latency.record(micros);
      },
      [=](publish_atom, const view_counters& counters) { self->state.read_side = counters; },
      [=](get_atom) {
        const auto& st = self->state;
        metrics_snapshot snapshot{st.write_side, 0, st.read_side, 0};  // after-stop: the facade's
        if (st.ack_latency.count() > 0) {
          snapshot.counters.ack_latency_p50_us = static_cast<int64_t>(st.ack_latency.quantile(0.50));
          snapshot.counters.ack_latency_p99_us = static_cast<int64_t>(st.ack_latency.quantile(0.99));
          snapshot.counters.ack_latency_max_us = static_cast<int64_t>(st.ack_latency.max());
        }
        if (snapshot.counters.oldest_unacked_since_ns >= 0) {
          const auto now =
              std::chrono::duration_cast<std::chrono::nanoseconds>(self->clock().now().time_since_epoch()).count();
          snapshot.oldest_unacked_age_ms = (now - snapshot.counters.oldest_unacked_since_ns) / 1'000'000;
        }
        return snapshot;
      },
  };
}

}  // namespace

metrics_actor spawn_metrics(caf::actor_system& system) { return system.spawn(metrics); }

}  // namespace status_store
