#pragma once
// topic_snapshot: a one-shot read of a topic, from the beginning of every partition to its end offsets
// as of the call, keeping the latest record per key. Verifies what reached the topic (the demo's
// verdict, tests, benchmarks); the store's own read path follows the topic with status_topic_follower.
#include "config/client_settings.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace status_store {

struct topic_record {
  std::optional<std::string> value;  // nullopt = tombstone
  int32_t partition = -1;
  int64_t offset = -1;
};

struct topic_contents {
  std::map<std::string, topic_record> latest;  // by key
  uint64_t records = 0;                        // records read, tombstones included
  int32_t partitions = 0;
};

/// Throws std::runtime_error if the end offsets or the records cannot be read within `timeout`.
topic_contents read_topic_to_end(const kafka_settings& consumer_settings, const std::string& topic,
                                 std::chrono::milliseconds timeout);

}  // namespace status_store
