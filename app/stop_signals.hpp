#pragma once
// SIGINT/SIGTERM as a request to stop, for a command with a main loop (the demo): the first signal
// only sets a flag the loop polls, so the command can drain and report; a second one ends the process
// at once (exit 128 + signal), for an operator who does not want to wait.
#include <atomic>
#include <thread>

namespace status_store::cli {

class stop_signals {
 public:
  /// Blocks SIGINT and SIGTERM in the calling thread and starts the watching thread. Construct it
  /// before any other thread exists: threads inherit the mask, so only the watcher sees the signals.
  stop_signals();
  /// Stops the watching thread (within ~100 ms); the signals stay blocked.
  ~stop_signals();
  stop_signals(const stop_signals&) = delete;
  stop_signals& operator=(const stop_signals&) = delete;

  /// The first signal received (SIGINT or SIGTERM), or 0 while none has been.
  int received() const { return received_.load(); }

 private:
  std::atomic<int> received_{0};
  std::atomic<bool> done_{false};
  std::thread watcher_;
};

/// "SIGINT", "SIGTERM" or "a signal".
const char* signal_name(int signal);

}  // namespace status_store::cli
