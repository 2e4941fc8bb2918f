// libFuzzer target: the status topic's record codec (messages/status_record_codec.hpp) on arbitrary
// bytes, as a reader meets them on a topic that other (possibly broken) writers share.
//
// Input: "<key>\n<value>". The key is everything before the first '\n', the value everything after
// it; an input without '\n' is used whole as both key and value. The seeds in corpus/record_codec/
// are real Connect records written that way.
//
// Checked, besides "no crash, no sanitizer report, no exception" (the codec promises never to throw):
//   - parse_key: a parsed key, re-built with connector_key / task_key / topic_key, parses to the same
//     parsed_key (the re-built key may differ in bytes: "+7" or "007" become "7", as in Connect).
//   - decode_status_value / decode_topic_value: anything that decodes re-encodes (encode_*_value) to
//     bytes that decode again to an equal value, and encoding that value once more gives the same bytes.
//   - encode_status_value / encode_topic_value on arbitrary strings (the key and value bytes, which
//     need not be UTF-8): never throws, always decodes; equal when the strings were valid UTF-8.
//   - decode_status_value (with its verbatim fast path) and decode_status_value_with_library give the
//     same value, or the same error, for every input.
#include "messages/status_record_codec.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <variant>

using namespace status_store;

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail) {
  std::fprintf(stderr, "record_codec_fuzz: property violated: %s\n  detail: ", what);
  std::fwrite(detail.data(), 1, detail.size(), stderr);
  std::fputc('\n', stderr);
  std::abort();
}

void check(bool ok, const char* what, std::string_view detail) {
  if (!ok) fail(what, detail);
}

/// Strict UTF-8 (no overlong forms, no surrogates, at most U+10FFFF): what JSON strings hold.
bool is_valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;
    unsigned lo = 0x80, hi = 0xBF;  // range of the second byte
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    const auto second = static_cast<unsigned char>(s[i + 1]);
    if (second < lo || second > hi) return false;
    for (std::size_t k = 2; k < len; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += len;
  }
  return true;
}

std::string rebuild_key(const parsed_key& key) {
  switch (key.kind) {
    case key_kind::connector:
      return connector_key(key.connector);
    case key_kind::task:
      return task_key(key.connector, key.task);
    case key_kind::topic:
      return topic_key(key.topic, key.connector);
  }
  fail("parse_key returned an unknown key_kind", "");
}

void check_key(std::string_view key) {
  const decoded<parsed_key> parsed = parse_key(key);
  if (const auto* error = std::get_if<decode_error>(&parsed)) {
    check(!error->reason.empty(), "parse_key rejected a key without a reason", key);
    return;
  }
  const parsed_key& first = std::get<parsed_key>(parsed);
  const std::string rebuilt = rebuild_key(first);
  const decoded<parsed_key> again = parse_key(rebuilt);
  check(std::holds_alternative<parsed_key>(again), "a re-built key does not parse", rebuilt);
  check(std::get<parsed_key>(again) == first, "a re-built key parses to another key", rebuilt);
}

template <class Value, class Decode, class Encode>
void check_value_round_trip(std::string_view bytes, Decode decode, Encode encode, const char* name) {
  const decoded<Value> first = decode(bytes);
  if (const auto* error = std::get_if<decode_error>(&first)) {
    check(!error->reason.empty(), "a value was rejected without a reason", bytes);
    return;
  }
  const Value& value = std::get<Value>(first);
  const std::string encoded = encode(value);
  const decoded<Value> second = decode(encoded);
  if (const auto* error = std::get_if<decode_error>(&second)) {
    fail(name, "re-encoded value does not decode: " + error->reason + " | bytes: " + encoded);
  }
  check(std::get<Value>(second) == value, name, "re-encoded value decodes to another value: " + encoded);
  check(encode(std::get<Value>(second)) == encoded, name, "encoding is not stable: " + encoded);
}

/// Values made directly from fuzzed strings: encoding must cope with any bytes (invalid UTF-8 becomes
/// U+FFFD), and what it writes must decode; strings that were valid UTF-8 must come back unchanged.
void check_encode_arbitrary(std::string_view a, std::string_view b, const uint8_t* data, std::size_t size) {
  const uint8_t selector = size > 0 ? data[0] : 0;
  int64_t number = 0;
  std::memcpy(&number, data, size < sizeof number ? size : sizeof number);

  status_value value;
  value.state = static_cast<status_state>(selector % 7);
  if (selector & 0x80) value.trace = std::string(b);
  if (selector & 0x40) value.version = std::string(b);
  value.worker_id = std::string(a);
  value.generation = static_cast<int32_t>(number);
  const std::string encoded_status = encode_status_value(value);
  const decoded<status_value> status_back = decode_status_value(encoded_status);
  if (const auto* error = std::get_if<decode_error>(&status_back)) {
    fail("encode_status_value wrote bytes that do not decode", error->reason + " | bytes: " + encoded_status);
  }
  check(encode_status_value(std::get<status_value>(status_back)) == encoded_status,
        "encode_status_value is not stable on its own output", encoded_status);
  if (is_valid_utf8(a) && is_valid_utf8(b)) {
    check(std::get<status_value>(status_back) == value, "a valid UTF-8 status value does not round-trip",
          encoded_status);
  }

  topic_status topic;
  topic.topic = std::string(a);
  topic.connector = std::string(b);
  topic.task = static_cast<int32_t>(number >> 32);
  topic.discover_timestamp = number;
  const std::string encoded_topic = encode_topic_value(topic);
  const decoded<topic_status> topic_back = decode_topic_value(encoded_topic);
  if (const auto* error = std::get_if<decode_error>(&topic_back)) {
    fail("encode_topic_value wrote bytes that do not decode", error->reason + " | bytes: " + encoded_topic);
  }
  check(encode_topic_value(std::get<topic_status>(topic_back)) == encoded_topic,
        "encode_topic_value is not stable on its own output", encoded_topic);
  if (is_valid_utf8(a) && is_valid_utf8(b)) {
    check(std::get<topic_status>(topic_back) == topic, "a valid UTF-8 topic value does not round-trip", encoded_topic);
  }
}

}  // namespace

/// The fast path may only ever say what the library path says.
void check_decoders_agree(std::string_view bytes) {
  const decoded<status_value> fast = decode_status_value(bytes);
  const decoded<status_value> library = decode_status_value_with_library(bytes);
  const auto* fast_error = std::get_if<decode_error>(&fast);
  const auto* library_error = std::get_if<decode_error>(&library);
  check((fast_error == nullptr) == (library_error == nullptr), "the decoders disagree on whether a value decodes",
        bytes);
  if (fast_error) {
    check(fast_error->reason == library_error->reason, "the decoders give different errors", bytes);
  } else {
    check(std::get<status_value>(fast) == std::get<status_value>(library), "the decoders give different values", bytes);
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const std::string_view key = newline == std::string_view::npos ? input : input.substr(0, newline);
  const std::string_view value = newline == std::string_view::npos ? input : input.substr(newline + 1);

  check_key(key);
  check_decoders_agree(value);
  check_value_round_trip<status_value>(value, decode_status_value, encode_status_value, "status value round trip");
  check_value_round_trip<topic_status>(value, decode_topic_value, encode_topic_value, "topic value round trip");
  check_encode_arbitrary(key, value, data, size);
  return 0;
}
