#pragma once
// What decoding a key or a value gives: the result, or why the record was rejected.
#include <string>
#include <variant>

namespace status_store {

/// Why a record was rejected (logged with its offset and counted by the reader).
struct decode_error {
  std::string reason;
};

template <class T>
using decoded = std::variant<T, decode_error>;

}  // namespace status_store
