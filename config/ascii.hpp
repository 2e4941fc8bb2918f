#pragma once
// ASCII-only text helpers: Kafka's keys, enum names and protocol names are ASCII, and the C library's
// toupper/tolower depend on the locale.
#include <string>
#include <string_view>

namespace status_store {

constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
constexpr char ascii_upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }
constexpr bool is_ascii_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

inline std::string ascii_lowercase(std::string_view text) {
  std::string lower{text};
  for (char& c : lower) c = ascii_lower(c);
  return lower;
}

inline std::string ascii_uppercase(std::string_view text) {
  std::string upper{text};
  for (char& c : upper) c = ascii_upper(c);
  return upper;
}

/// Java's String.trim(), which Kafka's ConfigDef applies to every value: it strips every character
/// up to and including the space, control characters too.
constexpr std::string_view java_trim(std::string_view text) {
  while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ') text.remove_prefix(1);
  while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ') text.remove_suffix(1);
  return text;
}

}  // namespace status_store
