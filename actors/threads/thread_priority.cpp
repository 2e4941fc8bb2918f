#include "actors/threads/thread_priority.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

namespace status_store {

namespace {
// On Linux, PRIO_PROCESS names one thread (who = a thread id, 0 for the calling one), not the whole
// process (setpriority(2), "BUGS"): the other threads keep their priority. -1 is a valid nice
// value, so only errno tells a failure.
std::optional<int> nice_or_error(int who) {
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(who));
  if (nice == -1 && errno != 0) return std::nullopt;
  return nice;
}

std::string lower_priority_of(int who, int increment) {
  if (increment <= 0) return {};
  const auto current = nice_or_error(who);
  if (!current) return std::strerror(errno);
  if (setpriority(PRIO_PROCESS, static_cast<id_t>(who), *current + increment) != 0) return std::strerror(errno);
  return {};
}
}  // namespace

int this_thread_id() { return static_cast<int>(gettid()); }

std::string lower_thread_priority(int tid, int increment) {
  if (tid <= 0) return "no such thread";  // 0 would name the calling thread
  return lower_priority_of(tid, increment);
}

std::string lower_this_thread_priority(int increment) { return lower_priority_of(0, increment); }

int thread_nice(int tid) { return tid > 0 ? nice_or_error(tid).value_or(0) : 0; }

int this_thread_nice() { return nice_or_error(0).value_or(0); }

}  // namespace status_store
