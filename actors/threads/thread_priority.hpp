#pragma once
// Scheduling priority of the calling thread, for the store's own threads only: the status view
// follows the topic below the write path's priority, so reading back never delays a write when the
// cores are busy (docs/architecture.md, "The view's thread").
#include <string>

namespace status_store {

/// Raises the calling thread's nice value by `increment` (Linux: a thread's own; lowering a
/// priority needs no privilege). Returns an empty string, or what the system said when it refused.
std::string lower_this_thread_priority(int increment);

/// The calling thread's nice value (for the log line and the tests).
int this_thread_nice();

}  // namespace status_store
