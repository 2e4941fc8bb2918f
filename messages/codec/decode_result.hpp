#pragma once
// What decoding a key or a value gives: the result, or why the record was rejected.
#include <string>
#include <variant>

namespace status_store {

/// Why a record was rejected (logged with its offset and counted by the reader).
struct decode_error {
  std::string reason;  // may quote the record's bytes (its key, its state): escape it before logging it
  // The rule the record broke, without any byte of the record ("unknown state", "value is not JSON"):
  // one of a fixed set, so the status view can rate-limit its log lines per rule.
  std::string rule;
};

template <class T>
using decoded = std::variant<T, decode_error>;

}  // namespace status_store
