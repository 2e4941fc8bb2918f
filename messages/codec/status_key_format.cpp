// Keys of the status topic as KafkaStatusBackingStore writes and parses them, Java's quirks included
// (String.split dropping trailing empty strings, Integer.parseInt, substring counted in UTF-16 units).
#include "messages/codec/status_key_format.hpp"

#include <charconv>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace status_store {

std::string connector_key(std::string_view connector) {
  std::string key;
  connector_key_into(connector, key);
  return key;
}

void connector_key_into(std::string_view connector, std::string& key) {
  key.clear();
  key.reserve(connector_key_prefix.size() + connector.size());
  key.append(connector_key_prefix).append(connector);
}

std::string task_key(std::string_view connector, int32_t task) {
  std::string key;
  task_key_into(connector, task, key);
  return key;
}

void task_key_into(std::string_view connector, int32_t task, std::string& key) {
  char id[12];
  const auto end = std::to_chars(id, id + sizeof id, task).ptr;
  key.clear();
  key.reserve(task_key_prefix.size() + connector.size() + 1 + static_cast<std::size_t>(end - id));
  key.append(task_key_prefix).append(connector).append("-").append(id, end);
}

std::string topic_key(std::string_view topic, std::string_view connector) {
  std::string key;
  key.reserve(topic_key_prefix.size() + topic.size() + topic_key_separator.size() + connector.size());
  key.append(topic_key_prefix).append(topic).append(topic_key_separator).append(connector);
  return key;
}

namespace {

/// Java's String.split("-"): split at every '-', then drop *trailing* empty strings (leading and
/// inner empty strings stay). A string without '-' yields itself, even when empty.
std::vector<std::string_view> java_split_dash(std::string_view s) {
  std::vector<std::string_view> parts;
  if (s.find('-') == std::string_view::npos) {
    parts.push_back(s);
    return parts;
  }
  std::size_t start = 0;
  for (;;) {
    const std::size_t dash = s.find('-', start);
    if (dash == std::string_view::npos) {
      parts.push_back(s.substr(start));
      break;
    }
    parts.push_back(s.substr(start, dash - start));
    start = dash + 1;
  }
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  return parts;
}

/// Java's Integer.parseInt(s) in radix 10: an optional '+' or '-', then at least one digit, the
/// value within int32. Only ASCII digits are accepted (Java also takes other Unicode decimal digits,
/// which no Connect worker writes: task ids come from Integer.toString).
std::optional<int32_t> java_parse_int(std::string_view s) {
  if (s.empty()) return std::nullopt;
  bool negative = false;
  std::size_t i = 0;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    i = 1;
    if (s.size() == 1) return std::nullopt;
  }
  // Accumulate the magnitude in 64 bits; the negative range is one larger (INT32_MIN).
  const int64_t limit =
      negative ? -int64_t{std::numeric_limits<int32_t>::min()} : int64_t{std::numeric_limits<int32_t>::max()};
  int64_t value = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
    if (value > limit) return std::nullopt;
  }
  return static_cast<int32_t>(negative ? -value : value);
}

/// Byte offset reached by skipping `units` UTF-16 code units of the UTF-8 text `s` from byte `from`,
/// the way Java's substring(delimiterPos + 11) counts. A 4-byte sequence counts as 2 units (a
/// surrogate pair), anything else valid as 1; an invalid byte counts as 1 unit (Java's decoder makes
/// it U+FFFD). nullopt if the skip ends past the end of `s` or in the middle of a surrogate pair.
std::optional<std::size_t> skip_utf16_units(std::string_view s, std::size_t from, std::size_t units) {
  std::size_t pos = from;
  while (units > 0) {
    if (pos >= s.size()) return std::nullopt;
    const auto lead = static_cast<unsigned char>(s[pos]);
    std::size_t len = 1;
    std::size_t width = 1;  // in UTF-16 units
    if (lead >= 0xC2 && lead <= 0xDF) {
      len = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      len = 3;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      len = 4;
      width = 2;
    }
    bool valid = pos + len <= s.size();
    for (std::size_t k = 1; valid && k < len; ++k) {
      valid = (static_cast<unsigned char>(s[pos + k]) & 0xC0) == 0x80;
    }
    if (!valid) {
      len = 1;
      width = 1;
    }
    if (width > units) return std::nullopt;  // would split a surrogate pair
    units -= width;
    pos += len;
  }
  return pos;
}

decode_error key_error(std::string_view what, std::string_view key) {
  std::string reason(what);
  reason.append(": '").append(key).append("'");
  return decode_error{std::move(reason), std::string{what}};
}

}  // namespace

decoded<parsed_key> parse_key(std::string_view key) {
  // Dispatch order as in KafkaStatusBackingStore.read(): connector, task, topic.
  if (key.starts_with(connector_key_prefix)) {
    std::string_view connector = key.substr(connector_key_prefix.size());
    if (connector.empty()) return key_error("invalid connector status key (empty connector)", key);
    return parsed_key{key_kind::connector, std::string(connector), 0, {}};
  }

  if (key.starts_with(task_key_prefix)) {
    // parseConnectorTaskId: key.split("-"), at least 4 parts ("status", "task", connector..., id),
    // id = Integer.parseInt(last part), connector = parts[2 .. n-2] joined with "-". Because split
    // drops trailing empty strings, "status-task-conn-0-" parses as conn / 0, and "status-task--0"
    // gives the empty connector name, both as in Java.
    const std::vector<std::string_view> parts = java_split_dash(key);
    if (parts.size() < 4) return key_error("invalid task status key (too few '-' separated parts)", key);
    const std::optional<int32_t> task = java_parse_int(parts.back());
    if (!task) return key_error("invalid task status key (invalid task id)", key);
    std::string connector;
    for (std::size_t i = 2; i + 1 < parts.size(); ++i) {
      if (i > 2) connector.push_back('-');
      connector.append(parts[i]);
    }
    return parsed_key{key_kind::task, std::move(connector), *task, {}};
  }

  if (key.starts_with(topic_key_prefix)) {
    // readTopicStatus: the topic ends at the first ':'; the connector starts 11 characters
    // (":connector-".length()) after it, without checking that those characters match.
    const std::size_t delimiter = key.find(':');
    if (delimiter == std::string_view::npos) return key_error("invalid topic status key (no ':')", key);
    std::string_view topic = key.substr(topic_key_prefix.size(), delimiter - topic_key_prefix.size());
    if (topic.empty()) return key_error("invalid topic status key (empty topic)", key);
    const std::optional<std::size_t> begin = skip_utf16_units(key, delimiter, topic_key_separator.size());
    if (!begin) return key_error("invalid topic status key (nothing after the topic)", key);
    std::string_view connector = key.substr(*begin);
    if (connector.empty()) return key_error("invalid topic status key (empty connector)", key);
    return parsed_key{key_kind::topic, std::string(connector), 0, std::string(topic)};
  }

  return key_error("unknown key prefix", key);
}

}  // namespace status_store
