#include "actors/policy/alert_queue.hpp"

#include <utility>

namespace status_store {

std::optional<alert_event> alert_queue::push(alert_event alert) {
  std::optional<alert_event> dropped;
  if (waiting_.size() >= capacity_) {
    dropped = std::move(waiting_.front());
    waiting_.pop_front();
    ++dropped_;
  }
  waiting_.push_back(std::move(alert));
  return dropped;
}

std::optional<alert_event> alert_queue::pop() {
  if (waiting_.empty()) return std::nullopt;
  alert_event oldest = std::move(waiting_.front());
  waiting_.pop_front();
  return oldest;
}

}  // namespace status_store
