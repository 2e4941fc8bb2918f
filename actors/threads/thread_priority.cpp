#include "actors/threads/thread_priority.hpp"

#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <optional>

namespace status_store {

namespace {
// On Linux, PRIO_PROCESS with who = 0 names the calling thread, not the whole process
// (setpriority(2), "BUGS"): the other threads keep their priority. -1 is a valid nice value, so
// only errno tells a failure.
std::optional<int> nice_or_error() {
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, 0);
  if (nice == -1 && errno != 0) return std::nullopt;
  return nice;
}
}  // namespace

std::string lower_this_thread_priority(int increment) {
  if (increment <= 0) return {};
  const auto current = nice_or_error();
  if (!current) return std::strerror(errno);
  if (setpriority(PRIO_PROCESS, 0, *current + increment) != 0) return std::strerror(errno);
  return {};
}

int this_thread_nice() { return nice_or_error().value_or(0); }

}  // namespace status_store
