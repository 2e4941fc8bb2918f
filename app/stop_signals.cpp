#include "app/stop_signals.hpp"

#include <pthread.h>
#include <csignal>
#include <cstdlib>
#include <ctime>

namespace status_store::cli {

namespace {
sigset_t stop_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}
}  // namespace

stop_signals::stop_signals() {
  const sigset_t set = stop_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  watcher_ = std::thread{[this, set] {
    // A timed wait, so the destructor can end the thread without sending it a signal.
    const timespec slice{0, 100'000'000};
    while (!done_.load()) {
      const int signal = sigtimedwait(&set, nullptr, &slice);
      if (signal <= 0) continue;
      int none = 0;
      if (!received_.compare_exchange_strong(none, signal)) std::_Exit(128 + signal);
    }
  }};
}

stop_signals::~stop_signals() {
  done_ = true;
  watcher_.join();
}

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "a signal";
  }
}

}  // namespace status_store::cli
