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

class retry_scheduler_state {
 public:
  retry_scheduler_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.retry-scheduler";

  // Typed with the fire timer; the coalescer holds retry_scheduler_actor, which cannot send it.
  using self_ptr = retry_scheduler_full_actor::stateful_pointer<retry_scheduler_state>;

  void init(self_ptr self, const retry_scheduler_config& config) {
    self_ = self;
    retry_ = config.retry;
    jitter_.emplace(config.jitter_seed);
    log_ = component_logger("retry-scheduler");
  }

  retry_scheduler_full_actor::behavior_type make_behavior() {
    return {
        [this](report_to_atom, retry_sink_actor& sink) { handle_report_to(sink); },
        [this](schedule_atom, std::vector<retry_request>& requests) { handle_schedule(requests); },
        [this](fire_atom) { handle_fire(); },
    };
  }

 private:
  // -- handlers for peers --
  void handle_report_to(retry_sink_actor& sink) { sink_ = std::move(sink); }
  void handle_schedule(std::vector<retry_request>& requests);

  // -- timers --
  void handle_fire();

  // -- helpers --
  void arm_for_earliest();

  self_ptr self_ = nullptr;
  retry_settings retry_;
  std::optional<jitter_source> jitter_;
  retry_sink_actor sink_;  // the coalescer, as far as due retries go
  std::shared_ptr<spdlog::logger> log_;
  std::multimap<time_point, retry_request> due_;  // deadline → retry
  std::multiset<time_point> armed_;               // deadlines with a fire message on its way
};

using self_ptr = retry_scheduler_state::self_ptr;

// -- handlers for peers --

void retry_scheduler_state::handle_schedule(std::vector<retry_request>& requests) {
  const auto now = self_->clock().now();
  for (auto& r : requests) {
    const auto delay = backoff_delay(retry_, r.retry_count, jitter_->next());
    log_->debug("retry {} of key '{}' in {:.3f} ms", r.retry_count + 1, r.key,
                std::chrono::duration<double, std::milli>(delay).count());
    due_.emplace(now + delay, std::move(r));
  }
  arm_for_earliest();
}

// -- timers --

void retry_scheduler_state::handle_fire() {
  if (!armed_.empty()) armed_.erase(armed_.begin());  // timers fire in deadline order
  const auto now = self_->clock().now();
  std::vector<retry_request> ready;
  auto end = due_.upper_bound(now);
  for (auto it = due_.begin(); it != end; ++it) ready.push_back(std::move(it->second));
  due_.erase(due_.begin(), end);
  if (!ready.empty()) self_->send(sink_, retry_due_atom::value, std::move(ready));
  arm_for_earliest();
}

// -- helpers --

/// Keeps the invariant: the earliest deadline always has a timer at or before it.
void retry_scheduler_state::arm_for_earliest() {
  if (due_.empty()) return;
  const auto earliest = due_.begin()->first;
  if (!armed_.empty() && *armed_.begin() <= earliest) return;
  armed_.insert(earliest);
  self_->delayed_send(self_, earliest - self_->clock().now(), fire_atom::value);
}

retry_scheduler_full_actor::behavior_type retry_scheduler(self_ptr self, const retry_scheduler_config& config) {
  self->state.init(self, config);
  return self->state.make_behavior();
}

}  // namespace

retry_scheduler_actor spawn_retry_scheduler(caf::actor_system& system, retry_scheduler_config config) {
  return system.spawn(retry_scheduler, config);
}

}  // namespace status_store
