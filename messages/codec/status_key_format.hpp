#pragma once
// Keys of the status topic, as Kafka Connect's KafkaStatusBackingStore writes and parses them.
#include "messages/codec/decode_result.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace status_store {

inline constexpr std::string_view connector_key_prefix = "status-connector-";
inline constexpr std::string_view task_key_prefix = "status-task-";
inline constexpr std::string_view topic_key_prefix = "status-topic-";
inline constexpr std::string_view topic_key_separator = ":connector-";

// --- keys -------------------------------------------------------------------------------------------
std::string connector_key(std::string_view connector);                      // status-connector-<c>
std::string task_key(std::string_view connector, int32_t task);             // status-task-<c>-<id>
std::string topic_key(std::string_view topic, std::string_view connector);  // status-topic-<t>:connector-<c>
/// The same keys into `key`, replacing its contents and reusing its capacity.
void connector_key_into(std::string_view connector, std::string& key);
void task_key_into(std::string_view connector, int32_t task, std::string& key);

enum class key_kind : uint8_t { connector, task, topic };

struct parsed_key {
  key_kind kind = key_kind::connector;
  std::string connector;
  int32_t task = 0;   // for key_kind::task
  std::string topic;  // for key_kind::topic
  friend bool operator==(const parsed_key&, const parsed_key&) = default;
};

/// Parses a key exactly as Connect does (dispatch order connector, task, topic; a task's connector
/// may contain '-', its id is after the last '-'; a topic key splits at the first ':').
decoded<parsed_key> parse_key(std::string_view key);

}  // namespace status_store
