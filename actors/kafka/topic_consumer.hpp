#pragma once
// topic_consumer: reads every partition of one topic from the beginning, as Connect's KafkaBasedLog
// does, and knows when it has caught up with the end offsets captured at creation. The building block
// of topic_snapshot and status_topic_follower: no consumer group joined, no offset committed.
// Plain C++, used from one thread at a time.
#include "actors/kafka/client_threads.hpp"
#include "actors/kafka/credential_failure_watch.hpp"
#include "config/client_settings.hpp"
#include "messages/protocol.hpp"

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace status_store {

/// The cluster was reachable but not ready (e.g. a topic created a moment ago whose partitions have
/// no leader yet: NOT_LEADER_FOR_PARTITION): worth trying again shortly. The constructor throws it;
/// the start-up policy (retry until status.storage.startup.timeout.ms) belongs to the caller.
struct transient_kafka_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class topic_consumer {
 public:
  /// Throws transient_kafka_error if the offsets are not available yet (retriable per the delivery
  /// error table), std::runtime_error for anything else or when `timeout` passes. Records whose
  /// writer header equals `own_writer_id` (if not empty) are marked `own`.
  topic_consumer(const kafka_settings& settings, const std::string& topic, std::chrono::milliseconds timeout,
                 std::string own_writer_id = {});
  ~topic_consumer();
  topic_consumer(const topic_consumer&) = delete;
  topic_consumer& operator=(const topic_consumer&) = delete;

  /// Waits at most `wait` for records, then appends what is available (at most `max`) to `out`.
  void poll(std::vector<consumed_record>& out, size_t max, std::chrono::milliseconds wait);

  /// Every partition has been read up to the end offsets captured at construction.
  bool caught_up() const { return unfinished_ == 0; }
  int32_t partitions() const { return static_cast<int32_t>(end_offsets_.size()); }
  /// Whether `r` was already in the topic at construction (below its partition's captured end offset).
  bool from_replay(const consumed_record& r) const {
    return r.partition >= 0 && r.partition < partitions() && r.offset < end_offsets_[static_cast<size_t>(r.partition)];
  }
  /// Records in the topic at construction (sum of end - start offsets): the replay's size.
  uint64_t records_at_start() const { return records_at_start_; }
  /// librdkafka's own threads of this consumer: their priority can be lowered once the replay is done.
  client_threads& threads() { return *threads_; }

 private:
  void reached(int32_t partition);

  // Before rk_, which its error callback points into: a rejected password ends start-up at once
  // (std::runtime_error naming it) instead of as a metadata timeout.
  std::unique_ptr<credential_failure_watch> credentials_ = std::make_unique<credential_failure_watch>("status reader");
  std::unique_ptr<client_threads> threads_ = std::make_unique<client_threads>();  // before rk_ too
  rd_kafka_t* rk_ = nullptr;
  std::string topic_;
  std::string own_writer_id_;
  std::vector<int64_t> end_offsets_;
  std::vector<bool> done_;
  size_t unfinished_ = 0;
  uint64_t records_at_start_ = 0;
};

}  // namespace status_store
