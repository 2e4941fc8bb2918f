#include "actors/threads/thread_priority.hpp"

#include <sys/resource.h>

#include <cerrno>
#include <cstring>

namespace status_store {

// On Linux, PRIO_PROCESS with who = 0 names the calling thread, not the whole process
// (setpriority(2), "BUGS"): the other threads keep their priority.
std::string lower_this_thread_priority(int increment) {
  if (increment <= 0) return {};
  errno = 0;
  const int current = getpriority(PRIO_PROCESS, 0);
  if (current == -1 && errno != 0) return std::strerror(errno);
  if (setpriority(PRIO_PROCESS, 0, current + increment) != 0) return std::strerror(errno);
  return {};
}

int this_thread_nice() {
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, 0);
  return nice == -1 && errno != 0 ? 0 : nice;
}

}  // namespace status_store
