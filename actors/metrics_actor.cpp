#include "actors/metrics_actor.hpp"

#include "actors/policy/latency_histogram.hpp"

#include "caf/actor_system.hpp"
#include "caf/stateful_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

namespace status_store {

namespace {

class metrics_state {
 public:
  metrics_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.metrics";

  using self_ptr = metrics_actor::stateful_pointer<metrics_state>;

  void init(self_ptr self) { self_ = self; }

  metrics_actor::behavior_type make_behavior() {
    return {
        [this](publish_atom, const write_side_report& report) { handle_write_side(report); },
        [this](publish_atom, const view_counters& counters) { handle_read_side(counters); },
        [this](publish_atom, const alert_counters& counters) { alerts_ = counters; },
        [this](get_atom) { return handle_get(); },
    };
  }

 private:
  // -- handlers for peers --
  void handle_write_side(const write_side_report& report) {
    write_side_ = report.counters;
    for (const ack_timing& t : report.acks) {
      ack_latency_.record(t.put_to_ack_us);
      ingest_wait_.record(t.ingest_wait_us);
      key_wait_.record(t.key_wait_us);
      to_producer_.record(t.to_producer_us);
      producer_queue_.record(t.producer_queue_us);
      report_to_coalescer_.record(t.report_to_coalescer_us);
    }
  }
  void handle_read_side(const view_counters& counters) { read_side_ = counters; }

  // -- handlers for the embedder (the facade, its reporter and the CLI ask through it) --
  metrics_snapshot handle_get() const;

  self_ptr self_ = nullptr;
  // Both sources publish cumulative values, so the latest report of each is the truth; the derived
  // gauges (latency quantiles, oldest unacknowledged age) are computed here.
  store_counters write_side_;      // from the coalescer
  view_counters read_side_;        // from the status view
  alert_counters alerts_;          // from the alert sender, if there is one
  latency_histogram ack_latency_;  // every put-to-acknowledgement latency the coalescer reported
  // ... and its hops (ack_timing, docs/metrics.md#write-path-hops)
  latency_histogram ingest_wait_, key_wait_, to_producer_, producer_queue_, report_to_coalescer_;
};

using self_ptr = metrics_state::self_ptr;

metrics_snapshot metrics_state::handle_get() const {
  metrics_snapshot snapshot{write_side_, 0, read_side_, 0, alerts_, {}};  // after-stop: the facade's
  if (ack_latency_.count() > 0) {
    snapshot.counters.ack_latency_p50_us = static_cast<int64_t>(ack_latency_.quantile(0.50));
    snapshot.counters.ack_latency_p99_us = static_cast<int64_t>(ack_latency_.quantile(0.99));
    snapshot.counters.ack_latency_max_us = static_cast<int64_t>(ack_latency_.max());
  }
  snapshot.hops = write_hops{ingest_wait_.distribution(), key_wait_.distribution(), to_producer_.distribution(),
                             producer_queue_.distribution(), report_to_coalescer_.distribution()};
  if (snapshot.counters.oldest_unacked_since_ns >= 0) {
    const auto now =
        std::chrono::duration_cast<std::chrono::nanoseconds>(self_->clock().now().time_since_epoch()).count();
    snapshot.oldest_unacked_age_ms = (now - snapshot.counters.oldest_unacked_since_ns) / 1'000'000;
  }
  return snapshot;
}

metrics_actor::behavior_type metrics(self_ptr self) {
  self->state.init(self);
  return self->state.make_behavior();
}

}  // namespace

metrics_actor spawn_metrics(caf::actor_system& system) { return system.spawn(metrics); }

}  // namespace status_store
