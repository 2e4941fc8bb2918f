#pragma once
// The threads one librdkafka client runs (its main thread and one per broker), as the kernel knows
// them, so that the store can lower their priority: the status reader's consumer follows the topic
// below the write path (docs/architecture.md, "The read side's threads"). librdkafka names no thread
// to its caller; its on_thread_start / on_thread_exit interceptors tell each one from inside it.
#include <librdkafka/rdkafka.h>

#include <mutex>
#include <string>
#include <vector>

namespace status_store {

class client_threads {
 public:
  /// Adds the interceptors to `conf`; the client made from it must be destroyed before this object.
  void install(rd_kafka_conf_t* conf);

  /// Raises the nice value of every thread the client runs now, and of those it starts later, by
  /// `increment` (once: a second call adds nothing). Returns an empty string, or the first refusal.
  std::string lower_priority(int increment);

  /// The thread ids running now.
  std::vector<int> ids() const;

 private:
  static rd_kafka_resp_err_t on_new(rd_kafka_t* rk, const rd_kafka_conf_t*, void* opaque, char*, size_t);
  static rd_kafka_resp_err_t on_thread_start(rd_kafka_t*, rd_kafka_thread_type_t, const char*, void* opaque);
  static rd_kafka_resp_err_t on_thread_exit(rd_kafka_t*, rd_kafka_thread_type_t, const char*, void* opaque);

  // A thread leaves the list under the lock before it exits, so an id in the list never names a
  // thread that has ended (ids are reused, even by other processes).
  mutable std::mutex mutex_;
  std::vector<int> ids_;
  int lowered_by_ = 0;
};

}  // namespace status_store
