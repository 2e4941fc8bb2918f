#include "actors/metrics_actor.hpp"

#include "caf/actor_system.hpp"
#include "caf/stateful_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

namespace status_store {

namespace {

struct metrics_state {
  metrics_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.metrics";
  // Both sources publish cumulative values, so the latest report of each is the truth.
  store_counters write_side;  // from the coalescer
  view_counters read_side;    // from the status view
};

using self_ptr = metrics_actor::stateful_pointer<metrics_state>;

metrics_actor::behavior_type metrics(self_ptr self) {
  return {
      [=](publish_atom, const store_counters& counters) { self->state.write_side = counters; },
      [=](publish_atom, const view_counters& counters) { self->state.read_side = counters; },
      [=](get_atom) {
        metrics_snapshot snapshot{self->state.write_side, 0, self->state.read_side};
        if (snapshot.counters.oldest_unacked_since_ns >= 0) {
          const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                               self->clock().now().time_since_epoch()).count();
          snapshot.oldest_unacked_age_ms = (now - snapshot.counters.oldest_unacked_since_ns) / 1'000'000;
        }
        return snapshot;
      },
  };
}

}  // namespace

metrics_actor spawn_metrics(caf::actor_system& system) { return system.spawn(metrics); }

}  // namespace status_store
