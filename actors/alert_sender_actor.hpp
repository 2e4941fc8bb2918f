#pragma once
// The alert sender: posts the status view's alerts to the webhook, one at a time and in order, so the
// store never waits on the receiver. Rules (docs/operations.md#webhook-alerts, tests/actor/alert_sender_test.cpp):
// - The POST runs on the transport's thread (messages/alert_transport.hpp); its outcome comes back as a
//   `posted` message. The actor's thread never touches the network.
// - An alert that gets no answer, a 408, a 429 or a 5xx is retried with the KIP's backoff
//   (status.storage.retry.*, actors/policy/backoff_policy.hpp) as a delayed self-message, at most
//   max.retries times; then, or at once on any other answer, it fails: counted and logged.
// - Alerts wait in a bounded queue (status.alert.queue.capacity, actors/policy/alert_queue.hpp); a new
//   alert finding it full pushes out the oldest waiting one, counted as dropped and logged.
// - Failure and drop lines are rate-limited (config/defaults.hpp) and name the receiver by its origin
//   only: never a path, a query or a header. The counters go to the metrics actor after each change.
#include "actors/policy/backoff_policy.hpp"
#include "messages/alert_transport.hpp"
#include "messages/protocol.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace status_store {

struct alert_sender_config {
  retry_settings retry;            // the worker's status.storage.retry.*: the KIP's backoff
  uint64_t jitter_seed = 0;        // seeds the jitter; tests pass a fixed seed and replay its sequence
  std::size_t queue_capacity = 1;  // status.alert.queue.capacity
  std::string status_topic;        // named in every alert document
};

/// Spawns the sender over `transport` (not null). Returns its full interface, for wiring: the view
/// holds it as an alert_sink_actor.
alert_sender_actor spawn_alert_sender(caf::actor_system& system, alert_sender_config config,
                                      std::shared_ptr<alert_transport> transport, metrics_actor metrics);

}  // namespace status_store
