#pragma once
// What the codec tests share: readable failure output and the helpers that decode or fail the test.
#include "messages/status_record_codec.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>

namespace status_store {

// Readable failure output.
inline void PrintTo(const parsed_key& k, std::ostream* os) {
  *os << "{kind=" << static_cast<int>(k.kind) << ", connector='" << k.connector << "', task=" << k.task << ", topic='"
      << k.topic << "'}";
}
inline void PrintTo(const status_value& v, std::ostream* os) {
  *os << "{" << to_string(v.state) << ", trace=" << (v.trace ? "'" + *v.trace + "'" : std::string("null"))
      << ", worker_id='" << v.worker_id << "', generation=" << v.generation
      << ", version=" << (v.version ? "'" + *v.version + "'" : std::string("null")) << "}";
}
inline void PrintTo(const topic_status& t, std::ostream* os) {
  *os << "{" << t.topic << ", " << t.connector << ", " << t.task << ", " << t.discover_timestamp << "}";
}
inline void PrintTo(const status_record& r, std::ostream* os) {
  *os << "{key='" << r.key << "', value=" << (r.value ? "'" + *r.value + "'" : std::string("tombstone")) << "}";
}

namespace codec_test {

template <class T>
::testing::AssertionResult is_error(const decoded<T>& result) {
  if (std::holds_alternative<decode_error>(result)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "decoded successfully";
}

template <class T>
inline std::string reason_of(const decoded<T>& result) {
  if (const auto* e = std::get_if<decode_error>(&result)) return e->reason;
  return "<no error>";
}

inline status_value decode_ok(std::string_view bytes) {
  auto result = decode_status_value(bytes);
  if (auto* e = std::get_if<decode_error>(&result)) {
    ADD_FAILURE() << "decode failed: " << e->reason << " for " << bytes;
    return {};
  }
  return std::get<status_value>(result);
}

inline parsed_key key_ok(std::string_view key) {
  auto result = parse_key(key);
  if (auto* e = std::get_if<decode_error>(&result)) {
    ADD_FAILURE() << "parse_key failed: " << e->reason;
    return {};
  }
  return std::get<parsed_key>(result);
}

inline status_value value(status_state state, std::optional<std::string> trace, std::string worker,
                          int32_t generation) {
  return status_value{state, std::move(trace), std::move(worker), generation};
}

inline std::string with_generation(std::string_view generation_literal) {
  return std::string(R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":)") +
         std::string(generation_literal) + "}";
}

}  // namespace codec_test
}  // namespace status_store
