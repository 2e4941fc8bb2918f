#pragma once
// The alerts waiting for the webhook, oldest first, at most `capacity` of them. When a new alert finds
// the queue full, the oldest waiting one is dropped and counted: the newest alerts say what the
// connectors and tasks are doing now, the oldest what they were doing when the receiver went away.
// Pure logic: no actor, no clock; the alert sender (actors/alert_sender_actor.hpp) wraps it and keeps
// the one alert being sent outside it.
#include "messages/alert.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>

namespace status_store {

class alert_queue {
 public:
  /// `capacity` below 1 is taken as 1.
  explicit alert_queue(std::size_t capacity) : capacity_{capacity < 1 ? 1 : capacity} {}

  /// Appends `alert`; when the queue is full, drops the oldest waiting alert first and returns it.
  std::optional<alert_event> push(alert_event alert);
  /// The oldest waiting alert, removed; nullopt when none waits.
  std::optional<alert_event> pop();

  std::size_t size() const { return waiting_.size(); }
  bool empty() const { return waiting_.empty(); }
  std::size_t capacity() const { return capacity_; }
  /// Alerts dropped unsent since the queue was made.
  uint64_t dropped() const { return dropped_; }

 private:
  std::size_t capacity_;
  std::deque<alert_event> waiting_;
  uint64_t dropped_ = 0;
};

}  // namespace status_store
