#pragma once
// The name a thread shows in top -H, ps -L and /proc/<pid>/task/<tid>/comm, for the store's own
// threads (librdkafka names its "rdk:…", CAF its "caf.…"): an operator can tell which one is busy.
namespace status_store {

/// Names the calling thread; the kernel keeps the first 15 characters. Best effort: a refusal
/// changes nothing else.
void name_this_thread(const char* name);

}  // namespace status_store
