#pragma once
// Status and topic values, byte-identical to Connect's JsonConverter (schemas.enable=false): compact
// JSON, fields in schema order, "trace":null when absent, strings escaped as Jackson escapes them.
// Status values are written in Connect 4.1+'s form, which ends with the plugin "version" (null when
// unknown); Connect 3.x and 4.0 read it by field name and ignore it, and their own four-field values
// decode here with no version. Decoding follows Connect's read path and its quirks.
#include "messages/codec/decode_result.hpp"
#include "messages/status.hpp"

#include <string>
#include <string_view>

namespace status_store {

/// {"state":"RUNNING","trace":null,"worker_id":"w","generation":2,"version":null}. A DESTROYED state
/// has no value: callers write a tombstone instead (see encode_status_record).
std::string encode_status_value(const status_value& value);
/// The same bytes into `out`, replacing its contents and reusing its capacity (the facade's put
/// encodes into a per-thread buffer this way, so an update allocates nothing on the common path).
void encode_status_value_into(const status_value& value, std::string& out);
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

}  // namespace status_store
