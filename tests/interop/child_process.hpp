#pragma once
// A process the interop tests start and stop themselves (a Kafka Connect worker, a status-store
// service): stdout and stderr go to a log file, and it is stopped by its own PID only.
#include <sys/types.h>
#include <chrono>
#include <string>
#include <vector>

namespace status_store::interop {

class child_process {
 public:
  /// Starts argv[0] (looked up on PATH) with `args`; throws std::runtime_error if it cannot.
  child_process(std::vector<std::string> argv, std::string log_path);
  /// stop() if still running.
  ~child_process();
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  pid_t pid() const { return pid_; }
  const std::string& log_path() const { return log_path_; }
  /// Everything it wrote so far.
  std::string log() const;
  bool running();
  /// SIGTERM, then SIGKILL after `grace`; returns the exit status as the shell shows it (-1 if
  /// it was already reaped).
  int stop(std::chrono::milliseconds grace = std::chrono::seconds{20});

 private:
  pid_t pid_ = -1;
  std::string log_path_;
  int status_ = -1;
};

}  // namespace status_store::interop
