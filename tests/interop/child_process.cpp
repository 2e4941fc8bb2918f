#include "child_process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace status_store::interop {

child_process::child_process(std::vector<std::string> argv, std::string log_path) : log_path_{std::move(log_path)} {
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  const int fd = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot open " + log_path_);
  pid_ = ::fork();
  if (pid_ == 0) {
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::close(fd);
  if (pid_ < 0) throw std::runtime_error("cannot fork for " + argv.front());
}

child_process::~child_process() { stop(); }

std::string child_process::log() const {
  std::ifstream in{log_path_, std::ios::binary};
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

bool child_process::running() {
  if (pid_ < 0) return false;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == 0) return true;
  status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  pid_ = -1;
  return false;
}

int child_process::stop(std::chrono::milliseconds grace) {
  if (!running()) return status_;
  ::kill(pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + grace;
  while (running() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds{50});
  if (running()) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    status_ = 128 + SIGKILL;
    pid_ = -1;
  }
  return status_;
}

}  // namespace status_store::interop
