#pragma once
// Records of the status topic, byte-identical to Kafka Connect 4.x's KafkaStatusBackingStore: a key
// (messages/codec/status_key_format.hpp) and a JSON value (messages/codec/status_value_codec.hpp),
// or a null value, a tombstone, for a deleted status. Every rejection says why.
#include "messages/codec/status_key_format.hpp"
#include "messages/codec/status_value_codec.hpp"
#include "messages/status.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace status_store {

struct status_record {
  std::string key;
  std::optional<std::string> value;  // nullopt = tombstone
  friend bool operator==(const status_record&, const status_record&) = default;
};

/// DESTROYED becomes a tombstone, everything else a JSON value.
status_record encode_connector_record(const connector_status& status);
status_record encode_task_record(const task_status& status);
status_record encode_topic_record(const topic_status& status);
status_record encode_topic_tombstone(std::string_view topic, std::string_view connector);

}  // namespace status_store
