#pragma once
// The metrics reporter's thread (store::set_metrics_reporter): calls a function every interval until
// it is destroyed. Apart from the store so that its lifecycle reads without the thread's.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace status_store {

class periodic_reporter {
 public:
  /// Starts the thread; the first call is one `interval` (at least 1 ms) from now.
  periodic_reporter(std::chrono::milliseconds interval, std::function<void()> tick);
  /// Wakes the thread and joins it; a call in progress finishes first.
  ~periodic_reporter();
  periodic_reporter(const periodic_reporter&) = delete;
  periodic_reporter& operator=(const periodic_reporter&) = delete;

 private:
  void run();

  const std::chrono::milliseconds interval_;
  const std::function<void()> tick_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;  // last: it starts once the members it reads exist
};

}  // namespace status_store
