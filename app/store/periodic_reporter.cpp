#include "app/store/periodic_reporter.hpp"

#include <algorithm>

namespace status_store {

periodic_reporter::periodic_reporter(std::chrono::milliseconds interval, std::function<void()> tick)
    : interval_{std::max(interval, std::chrono::milliseconds{1})}, tick_{std::move(tick)}, thread_{[this] { run(); }} {}

periodic_reporter::~periodic_reporter() {
  {
    std::lock_guard lock{mutex_};
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void periodic_reporter::run() {
  std::unique_lock lock{mutex_};
  while (!wake_.wait_for(lock, interval_, [this] { return stopping_; })) {
    lock.unlock();  // the call may take a while (it asks the metrics actor): the destructor must not wait for the lock
    tick_();
    lock.lock();
  }
}

}  // namespace status_store
