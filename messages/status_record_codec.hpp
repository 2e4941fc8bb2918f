#pragma once
// Keys and values of the status topic, byte-identical to Kafka Connect 4.x's KafkaStatusBackingStore
// with its internal JsonConverter (schemas.enable=false): compact JSON, fields in schema order,
// "trace":null when absent, strings escaped as Jackson escapes them. A null value is a tombstone.
// Status values are written in Connect 4.1+'s form, which ends with the plugin "version" (null when
// unknown); Connect 3.x and 4.0 read it by field name and ignore it, and their own four-field values
// decode here with no version. Decoding follows Connect's read path and its quirks; every rejection
// says why.
#include "messages/status.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace status_store {

inline constexpr std::string_view connector_key_prefix = "status-connector-";
inline constexpr std::string_view task_key_prefix = "status-task-";
inline constexpr std::string_view topic_key_prefix = "status-topic-";
inline constexpr std::string_view topic_key_separator = ":connector-";

// --- keys -------------------------------------------------------------------------------------------
std::string connector_key(std::string_view connector);                  // status-connector-<c>
std::string task_key(std::string_view connector, int32_t task);         // status-task-<c>-<id>
std::string topic_key(std::string_view topic, std::string_view connector);  // status-topic-<t>:connector-<c>

enum class key_kind : uint8_t { connector, task, topic };

struct parsed_key {
  key_kind kind = key_kind::connector;
  std::string connector;
  int32_t task = 0;    // for key_kind::task
  std::string topic;   // for key_kind::topic
  friend bool operator==(const parsed_key&, const parsed_key&) = default;
};

/// Why a record was rejected (logged with its offset and counted by the reader).
struct decode_error {
  std::string reason;
};

template <class T>
using decoded = std::variant<T, decode_error>;

/// Parses a key exactly as Connect does (dispatch order connector, task, topic; a task's connector
/// may contain '-', its id is after the last '-'; a topic key splits at the first ':').
decoded<parsed_key> parse_key(std::string_view key);

// --- values -----------------------------------------------------------------------------------------
/// {"state":"RUNNING","trace":null,"worker_id":"w","generation":2,"version":null}. A DESTROYED state
/// has no value: callers write a tombstone instead (see encode_status_record).
std::string encode_status_value(const status_value& value);
/// {"topic":{"name":"t","connector":"c","task":0,"discoverTimestamp":1580000000000}}
std::string encode_topic_value(const topic_status& status);

/// The same bytes, always built through the JSON library (the encoders above take a verbatim fast
/// path for strings that need no escaping; tests compare the two).
std::string encode_status_value_with_library(const status_value& value);
std::string encode_topic_value_with_library(const topic_status& status);

/// Connect's read path. Values in the exact form the encoders write (Connect's own form: no
/// whitespace, fields in order, strings that need no escaping) take a verbatim fast path; anything
/// else goes through the JSON library, with the same result (tests and the fuzzer compare the two).
decoded<status_value> decode_status_value(std::string_view bytes);
decoded<status_value> decode_status_value_with_library(std::string_view bytes);
decoded<topic_status> decode_topic_value(std::string_view bytes);

// --- whole records ----------------------------------------------------------------------------------
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
