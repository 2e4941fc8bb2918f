#include "actors/event_hub_actor.hpp"

#include "config/logging.hpp"
#include "messages/codec/status_event_json.hpp"

#include "caf/actor_system.hpp"
#include "caf/stateful_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

#include <map>

namespace status_store {

namespace {

class event_hub_state {
 public:
  event_hub_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.event-hub";

  // Typed with join and leave; the view holds it as a status_event_sink_actor.
  using self_ptr = event_hub_actor::stateful_pointer<event_hub_state>;

  void init(self_ptr self, const status_view_actor& view) {
    self_ = self;
    log_ = component_logger("event-hub");
    self_->link_to(view);  // a hub without its view has nothing to say: it goes with it
    self_->send(view, subscribe_atom_v, status_event_sink_actor{event_hub_actor{self}});
  }

  event_hub_actor::behavior_type make_behavior() {
    return {
        [this](events_atom, const std::vector<status_event>& events) { handle_events(events); },
        [this](join_atom, event_stream_port& port) { handle_join(port); },
        [this](leave_atom, uint64_t id) { handle_leave(id); },
    };
  }

 private:
  // -- from the view --
  void handle_events(const std::vector<status_event>& events);
  // -- from the HTTP listener --
  void handle_join(event_stream_port& port);
  void handle_leave(uint64_t id);

  self_ptr self_ = nullptr;
  std::shared_ptr<spdlog::logger> log_;
  std::map<uint64_t, std::shared_ptr<event_stream_sink>> streams_;  // by id
};

void event_hub_state::handle_events(const std::vector<status_event>& events) {
  if (streams_.empty() || events.empty()) return;
  const auto frames = std::make_shared<const std::string>(status_events_sse(events));
  for (auto it = streams_.begin(); it != streams_.end();) {
    if (it->second->offer(frames)) {
      ++it;
    } else {
      log_->debug("event stream {} ended", it->first);
      it = streams_.erase(it);
    }
  }
}

void event_hub_state::handle_join(event_stream_port& port) {
  if (!port.sink) return;
  streams_[port.id] = std::move(port.sink);
  log_->debug("event stream {} joined ({} open)", port.id, streams_.size());
}

void event_hub_state::handle_leave(uint64_t id) { streams_.erase(id); }

event_hub_actor::behavior_type event_hub(event_hub_state::self_ptr self, const status_view_actor& view) {
  self->state.init(self, view);
  return self->state.make_behavior();
}

}  // namespace

event_hub_actor spawn_event_hub(caf::actor_system& system, status_view_actor view) {
  return system.spawn(event_hub, std::move(view));
}

}  // namespace status_store
