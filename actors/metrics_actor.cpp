#include "actors/metrics_actor.hpp"

#include "caf/actor_system.hpp"
#include "caf/stateful_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

namespace status_store {

namespace {

struct metrics_state {
  metrics_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.metrics";
  store_counters latest;  // the coalescer publishes cumulative values: the latest report is the truth
};

using self_ptr = metrics_actor::stateful_pointer<metrics_state>;

metrics_actor::behavior_type metrics(self_ptr self) {
  return {
      [=](publish_atom, const store_counters& counters) { self->state.latest = counters; },
      [=](get_atom) {
        metrics_snapshot snapshot{self->state.latest, 0};
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
