#pragma once
// What the alert tests stand in for: the webhook's transport (it remembers every POST and answers only
// when the test says so) and an alert sink that records what the status view raises.
#include "caf_dsl.hpp"

#include "messages/alert_transport.hpp"
#include "messages/protocol.hpp"

#include <functional>
#include <string>
#include <vector>

namespace status_store::testing {

/// The transport of a receiver the test plays: each post waits for answer().
struct fake_transport : alert_transport {
  std::vector<std::string> bodies;  // every POST, retries included, in order
  std::vector<std::function<void(alert_post_result)>> unanswered;

  void post(std::string body, std::function<void(alert_post_result)> done) override {
    bodies.push_back(std::move(body));
    unanswered.push_back(std::move(done));
  }
  std::string describe() const override { return "http://receiver.test:80"; }

  /// Answers the oldest unanswered POST; status 0: no answer (connection refused).
  void answer(int32_t status) {
    CAF_REQUIRE(!unanswered.empty());
    auto done = std::move(unanswered.front());
    unanswered.erase(unanswered.begin());
    done(alert_post_result{status, status == 0 ? "connecting: Connection refused" : ""});
  }
};

struct alert_recorder_state {
  alert_recorder_state() = default;
  static inline const char* name = "test.alert-recorder";
  std::vector<alert_event> alerts;
  size_t messages = 0;
};
using alert_recorder_impl = std::remove_pointer_t<alert_sink_actor::stateful_pointer<alert_recorder_state>>;

inline alert_sink_actor::behavior_type alert_recorder(alert_sink_actor::stateful_pointer<alert_recorder_state> self) {
  return {
      [=](alert_atom, std::vector<alert_event>& alerts) {
        ++self->state.messages;
        for (auto& a : alerts) self->state.alerts.push_back(std::move(a));
      },
  };
}

}  // namespace status_store::testing
