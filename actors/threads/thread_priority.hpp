#pragma once
// Scheduling priority of the store's own threads: the read side (the status view, its reader and
// the consumer's librdkafka threads) follows the topic below the write path's priority, so reading
// back never delays a write when the cores are busy (docs/architecture.md, "The read side's threads").
#include <string>

namespace status_store {

/// The calling thread's id as the kernel knows it (gettid): what lower_thread_priority names.
int this_thread_id();

/// Raises the nice value of thread `tid` of this process by `increment` (Linux: one thread's own;
/// lowering a priority needs no privilege). Returns an empty string, or what the system said when it
/// refused (a thread that has ended: "No such process").
std::string lower_thread_priority(int tid, int increment);

/// The same for the calling thread.
std::string lower_this_thread_priority(int increment);

/// The nice value of thread `tid` of this process (for log lines and the tests); 0 when unknown.
int thread_nice(int tid);

/// The calling thread's nice value.
int this_thread_nice();

}  // namespace status_store
