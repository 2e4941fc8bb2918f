#include "actors/retry_scheduler_actor.hpp"

#include "config/logging.hpp"

#include "caf/actor_system.hpp"
#include "caf/stateful_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

#include <map>
#include <optional>
#include <set>

namespace status_store {

namespace {

using time_point = caf::actor_clock::time_point;

struct retry_scheduler_state {
  retry_scheduler_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.retry-scheduler";

  retry_settings retry;
  std::optional<jitter_source> jitter;
  coalescer_actor coalescer;
  std::shared_ptr<spdlog::logger> log;
  std::multimap<time_point, retry_request> due;  // deadline → retry
  std::multiset<time_point> armed;               // deadlines with a fire message on its way
};

using self_ptr = retry_scheduler_actor::stateful_pointer<retry_scheduler_state>;

/// Keeps the invariant: the earliest deadline always has a timer at or before it.
void arm_for_earliest(self_ptr self) {
  auto& st = self->state;
  if (st.due.empty()) return;
  const auto earliest = st.due.begin()->first;
  if (!st.armed.empty() && *st.armed.begin() <= earliest) return;
  st.armed.insert(earliest);
  self->delayed_send(self, earliest - self->clock().now(), fire_atom::value);
}

retry_scheduler_actor::behavior_type retry_scheduler(self_ptr self, retry_scheduler_config config) {
  auto& st = self->state;
  st.retry = config.retry;
  st.jitter.emplace(config.jitter_seed);
  st.log = component_logger("retry-scheduler");
  return {
      [=](report_to_atom, coalescer_actor& coalescer) { self->state.coalescer = std::move(coalescer); },
      [=](schedule_atom, std::vector<retry_request>& requests) {
        auto& s = self->state;
        const auto now = self->clock().now();
        for (auto& r : requests) {
          const auto delay = backoff_delay(s.retry, r.retry_count, s.jitter->next());
          s.log->debug("retry {} of key '{}' in {:.3f} ms", r.retry_count + 1, r.key,
                       std::chrono::duration<double, std::milli>(delay).count());
          s.due.emplace(now + delay, std::move(r));
        }
        arm_for_earliest(self);
      },
      [=](fire_atom) {
        auto& s = self->state;
        if (!s.armed.empty()) s.armed.erase(s.armed.begin());  // timers fire in deadline order
        const auto now = self->clock().now();
        std::vector<retry_request> ready;
        auto end = s.due.upper_bound(now);
        for (auto it = s.due.begin(); it != end; ++it) ready.push_back(std::move(it->second));
        s.due.erase(s.due.begin(), end);
        if (!ready.empty()) self->send(s.coalescer, retry_due_atom::value, std::move(ready));
        arm_for_earliest(self);
      },
  };
}

}  // namespace

retry_scheduler_actor spawn_retry_scheduler(caf::actor_system& system, retry_scheduler_config config) {
  return system.spawn(retry_scheduler, config);
}

}  // namespace status_store
