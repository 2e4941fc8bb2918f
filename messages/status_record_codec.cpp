// Keys and values of the status topic, byte-compatible with Kafka Connect's KafkaStatusBackingStore
// and its internal JsonConverter (schemas.enable=false, Jackson 2.x underneath).
//
// Encoding: the JSON tree is built with nlohmann::ordered_json (schema field order) and dumped
// compactly with ensure_ascii=false. The dump is then rewritten to Jackson's byte form by
// `to_jackson_bytes`, which differs from nlohmann's output in exactly two ways:
//   1. Control characters other than \b \t \n \f \r are escaped as \u00XX with UPPER-case hex
//      (Jackson's CharTypes hex table); nlohmann writes lower-case.
//   2. Characters outside the BMP (4-byte UTF-8) are written by Jackson's UTF8JsonGenerator as an
//      escaped UTF-16 surrogate pair, e.g. U+1F600 -> \uD83D\uDE00 (jackson-core issue #223; the
//      opt-in COMBINE_UNICODE_SURROGATES_IN_UTF8 of 2.18+ is not enabled by Kafka). BMP characters,
//      DEL (0x7F) and '/' are written raw by both.
// The rewrite is safe because in nlohmann's compact output every backslash introduces an escape
// (a literal backslash is itself written as the escape "\\"), so scanning escapes pairwise never
// mistakes text for an escape, and every byte >= 0x80 lies inside a string.
//
// Strings that are not valid UTF-8 (Java strings always are) never make encoding throw: each invalid
// sequence is replaced by U+FFFD (nlohmann's error_handler_t::replace), so such a value does not
// round-trip byte for byte.
//
// Decoding follows KafkaStatusBackingStore.parse*Status: Jackson's readTree (trailing content after
// the first JSON value is ignored, duplicate keys: the last one wins), then casts of the schemaless
// values (integers are Long, read with intValue()). Every failure is a decode_error; nothing throws.
#include "messages/status_record_codec.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <exception>
#include <limits>
#include <utility>
#include <vector>

namespace status_store {

// --- states -----------------------------------------------------------------------------------------

namespace {

constexpr std::array<std::pair<status_state, std::string_view>, 7> state_names{{
    {status_state::unassigned, "UNASSIGNED"},
    {status_state::running, "RUNNING"},
    {status_state::paused, "PAUSED"},
    {status_state::failed, "FAILED"},
    {status_state::destroyed, "DESTROYED"},
    {status_state::restarting, "RESTARTING"},
    {status_state::stopped, "STOPPED"},
}};

}  // namespace

std::string_view to_string(status_state state) {
  for (const auto& [s, name] : state_names) {
    if (s == state) return name;
  }
  return {};  // not an enumerator (a cast gone wrong); decodes as an unknown state
}

std::optional<status_state> parse_status_state(std::string_view name) {
  // Java's Enum.valueOf: exact, case-sensitive name.
  for (const auto& [s, n] : state_names) {
    if (n == name) return s;
  }
  return std::nullopt;
}

// --- keys -------------------------------------------------------------------------------------------

std::string connector_key(std::string_view connector) {
  std::string key;
  key.reserve(connector_key_prefix.size() + connector.size());
  key.append(connector_key_prefix).append(connector);
  return key;
}

std::string task_key(std::string_view connector, int32_t task) {
  std::string key;
  key.reserve(task_key_prefix.size() + connector.size() + 12);
  key.append(task_key_prefix).append(connector).append("-").append(std::to_string(task));
  return key;
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
  const int64_t limit = negative ? -int64_t{std::numeric_limits<int32_t>::min()}
                                 : int64_t{std::numeric_limits<int32_t>::max()};
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
  return decode_error{std::move(reason)};
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

// --- values: encoding -------------------------------------------------------------------------------

namespace {

constexpr char upper_hex[] = "0123456789ABCDEF";

void append_u_escape(std::string& out, unsigned code_unit) {
  out.append("\\u");
  out.push_back(upper_hex[(code_unit >> 12) & 0xF]);
  out.push_back(upper_hex[(code_unit >> 8) & 0xF]);
  out.push_back(upper_hex[(code_unit >> 4) & 0xF]);
  out.push_back(upper_hex[code_unit & 0xF]);
}

/// Compact dump of `j`, rewritten to the bytes Jackson's UTF8JsonGenerator writes (see the top of
/// this file). Never throws on bad UTF-8: invalid sequences become U+FFFD.
std::string to_jackson_bytes(const nlohmann::ordered_json& j) {
  const std::string dumped = j.dump(-1, ' ', /*ensure_ascii=*/false, nlohmann::ordered_json::error_handler_t::replace);
  std::string out;
  out.reserve(dumped.size() + 16);
  for (std::size_t i = 0; i < dumped.size();) {
    const auto c = static_cast<unsigned char>(dumped[i]);
    if (c == '\\' && i + 1 < dumped.size()) {
      if (dumped[i + 1] == 'u' && i + 5 < dumped.size()) {
        // nlohmann writes \u only for U+0000..U+001F (ensure_ascii=false): upper-case its hex.
        out.append("\\u");
        for (std::size_t k = i + 2; k < i + 6; ++k) {
          char h = dumped[k];
          if (h >= 'a' && h <= 'f') h = static_cast<char>(h - 'a' + 'A');
          out.push_back(h);
        }
        i += 6;
      } else {
        out.append(dumped, i, 2);  // \" \\ \b \f \n \r \t: identical in Jackson
        i += 2;
      }
    } else if (c >= 0xF0 && i + 3 < dumped.size()) {
      // A 4-byte sequence (the dump is valid UTF-8): Jackson writes it as an escaped surrogate pair.
      const unsigned cp = ((c & 0x07u) << 18) | ((static_cast<unsigned char>(dumped[i + 1]) & 0x3Fu) << 12) |
                          ((static_cast<unsigned char>(dumped[i + 2]) & 0x3Fu) << 6) |
                          (static_cast<unsigned char>(dumped[i + 3]) & 0x3Fu);
      const unsigned v = cp - 0x10000u;
      append_u_escape(out, 0xD800u + (v >> 10));
      append_u_escape(out, 0xDC00u + (v & 0x3FFu));
      i += 4;
    } else {
      out.push_back(static_cast<char>(c));
      ++i;
    }
  }
  return out;
}

}  // namespace

namespace {

/// True if JSON writes `text` verbatim between quotes, in nlohmann's and in Jackson's form alike:
/// valid UTF-8 with no '"', no '\\', no control character and no character outside the BMP (which
/// Jackson escapes as a surrogate pair). Almost every status string qualifies.
bool written_verbatim(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == '"' || c == '\\') return false;
      ++i;
      continue;
    }
    // Multi-byte UTF-8: accept well-formed 2- and 3-byte sequences only; anything else (4-byte
    // sequences, invalid bytes) takes the library path, which escapes or replaces it.
    std::size_t length = 0;
    uint32_t code = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
      code = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      code = c & 0x0F;
    } else {
      return false;
    }
    if (i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      code = (code << 6) | (cc & 0x3F);
    }
    if (length == 3 && (code < 0x800 || (code >= 0xD800 && code <= 0xDFFF))) return false;  // overlong, surrogate
    i += length;
  }
  return true;
}

void append_quoted(std::string& out, std::string_view text) {
  out += '"';
  out += text;
  out += '"';
}

}  // namespace

std::string encode_status_value(const status_value& value) {
  // Fast path, byte-identical to the library path below (a unit test compares them over random
  // inputs): taken when every string is written verbatim, which is nearly always. It is the hot
  // path of every put, so it matters: about 10x cheaper than building and rewriting a JSON tree.
  if (written_verbatim(value.worker_id) && (!value.trace || written_verbatim(*value.trace)) &&
      (!value.version || written_verbatim(*value.version))) {
    std::string out;
    out.reserve(80 + value.worker_id.size() + (value.trace ? value.trace->size() : 0) +
                (value.version ? value.version->size() : 0));
    out += R"({"state":)";
    append_quoted(out, to_string(value.state));
    out += R"(,"trace":)";
    if (value.trace)
      append_quoted(out, *value.trace);
    else
      out += "null";
    out += R"(,"worker_id":)";
    append_quoted(out, value.worker_id);
    out += R"(,"generation":)";
    out += std::to_string(value.generation);
    out += R"(,"version":)";
    if (value.version)
      append_quoted(out, *value.version);
    else
      out += "null";
    out += '}';
    return out;
  }
  return encode_status_value_with_library(value);
}

std::string encode_status_value_with_library(const status_value& value) {
  // STATUS_SCHEMA_V0 field order (Connect 4.1+); an absent trace or version is an optional null
  // field, written as null.
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["state"] = std::string(to_string(value.state));
  if (value.trace) {
    j["trace"] = *value.trace;
  } else {
    j["trace"] = nullptr;
  }
  j["worker_id"] = value.worker_id;
  j["generation"] = value.generation;
  if (value.version) {
    j["version"] = *value.version;
  } else {
    j["version"] = nullptr;
  }
  return to_jackson_bytes(j);
}

std::string encode_topic_value(const topic_status& status) {
  if (written_verbatim(status.topic) && written_verbatim(status.connector)) {
    std::string out;
    out.reserve(96 + status.topic.size() + status.connector.size());
    out += R"({"topic":{"name":)";
    append_quoted(out, status.topic);
    out += R"(,"connector":)";
    append_quoted(out, status.connector);
    out += R"(,"task":)";
    out += std::to_string(status.task);
    out += R"(,"discoverTimestamp":)";
    out += std::to_string(status.discover_timestamp);
    out += "}}";
    return out;
  }
  return encode_topic_value_with_library(status);
}

std::string encode_topic_value_with_library(const topic_status& status) {
  nlohmann::ordered_json inner = nlohmann::ordered_json::object();
  inner["name"] = status.topic;
  inner["connector"] = status.connector;
  inner["task"] = status.task;
  inner["discoverTimestamp"] = status.discover_timestamp;
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["topic"] = std::move(inner);
  return to_jackson_bytes(j);
}

// --- values: decoding -------------------------------------------------------------------------------

namespace {

using json = nlohmann::json;

/// If `text` is a JSON integer literal (optional '-', digits only), its value modulo 2^64 as two's
/// complement: what Jackson's BigIntegerNode.longValue() gives for integers beyond 64 bits.
std::optional<int64_t> integer_literal_low64(const std::string& text) {
  std::size_t i = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) i = 1;
  if (i >= text.size()) return std::nullopt;
  uint64_t value = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10u + static_cast<uint64_t>(c - '0');  // wraps modulo 2^64
  }
  if (negative) value = 0u - value;
  return static_cast<int64_t>(value);
}

/// nlohmann's DOM builder (nlohmann::detail::json_sax_dom_parser, the class json::parse itself uses;
/// stable across 3.x) wrapped to add two Jackson-isms: integers too large for 64 bits (which nlohmann
/// would turn into doubles) stay integers, wrapped to 64 bits; and the parse error is kept as text
/// instead of being thrown.
class jackson_like_sax {
 public:
  explicit jackson_like_sax(json& root) : dom_(root, /*allow_exceptions=*/false) {}

  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const std::string& text) {
    if (const std::optional<int64_t> wrapped = integer_literal_low64(text)) return dom_.number_integer(*wrapped);
    return dom_.number_float(v, text);
  }
  bool string(std::string& v) { return dom_.string(v); }
  bool binary(json::binary_t& v) { return dom_.binary(v); }
  bool start_object(std::size_t n) { return dom_.start_object(n); }
  bool key(std::string& k) { return dom_.key(k); }
  bool end_object() { return dom_.end_object(); }
  bool start_array(std::size_t n) { return dom_.start_array(n); }
  bool end_array() { return dom_.end_array(); }
  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/, const nlohmann::detail::exception& ex) {
    error_ = ex.what();
    return false;
  }

  const std::string& error() const { return error_; }

 private:
  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::string error_;
};

/// Jackson's ObjectMapper.readTree: the first JSON value; anything after it is not read
/// (FAIL_ON_TRAILING_TOKENS is off by default in Jackson 2).
std::variant<json, decode_error> parse_json(std::string_view bytes) {
  json root;
  jackson_like_sax sax(root);
  try {
    const bool ok = json::sax_parse(bytes.begin(), bytes.end(), &sax, json::input_format_t::json,
                                    /*strict=*/false);
    if (!ok) {
      return decode_error{"value is not JSON: " + (sax.error().empty() ? std::string("parse failed") : sax.error())};
    }
  } catch (const std::exception& e) {
    return decode_error{std::string("value is not JSON: ") + e.what()};
  }
  return root;
}

decode_error field_error(std::string_view field, std::string_view problem) {
  std::string reason = "field '";
  reason.append(field).append("' ").append(problem);
  return decode_error{std::move(reason)};
}

/// Field lookup; nullptr when absent. A JSON null is returned as a null value (callers treat absent
/// and null alike, as Java's Map.get does).
const json* find_field(const json& object, const char* name) {
  const auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

bool absent_or_null(const json* v) { return v == nullptr || v->is_null(); }

/// A required Java String field: `(String) map.get(name)` then used as non-null.
std::variant<std::string, decode_error> required_string(const json& object, const char* name) {
  const json* v = find_field(object, name);
  if (absent_or_null(v)) return field_error(name, "is missing or null");
  if (!v->is_string()) return field_error(name, "is not a string");
  return v->get<std::string>();
}

/// `((Long) map.get(name))`: any JSON integer, as its (already 64-bit wrapped) long value. Floats
/// (1.5, 1.0, 1e3) are Doubles/BigDecimals in Java: ClassCastException.
std::variant<int64_t, decode_error> required_long(const json& object, const char* name) {
  const json* v = find_field(object, name);
  if (absent_or_null(v)) return field_error(name, "is missing or null");
  if (v->is_number_unsigned()) return static_cast<int64_t>(v->get<uint64_t>());  // wraps like longValue()
  if (v->is_number_integer()) return v->get<int64_t>();
  return field_error(name, "is not an integer");
}

/// Long.intValue(): keep the low 32 bits.
int32_t java_int_value(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

}  // namespace

namespace {

/// Reads the exact form encode_status_value writes for verbatim strings, which is also the form
/// Connect writes; nullopt for anything else (the caller then takes the library path, which
/// decides on it — including every error). The status view decodes every record read back, so this
/// is on the hot path: it skips building a JSON tree.
class verbatim_status_reader {
 public:
  explicit verbatim_status_reader(std::string_view bytes) : rest_{bytes} {}

  std::optional<status_value> read() {
    status_value value;
    std::string_view state;
    if (!literal(R"({"state":")") || !string_body(state)) return std::nullopt;
    const auto parsed_state = parse_status_state(state);
    if (!parsed_state) return std::nullopt;
    value.state = *parsed_state;
    if (!literal(R"(,"trace":)") || !optional_string(value.trace)) return std::nullopt;
    std::string_view worker;
    if (!literal(R"(,"worker_id":")") || !string_body(worker)) return std::nullopt;
    value.worker_id.assign(worker);
    if (!literal(R"(,"generation":)") || !small_integer(value.generation)) return std::nullopt;
    if (literal(R"(,"version":)") && !optional_string(value.version)) return std::nullopt;
    if (!literal("}") || !rest_.empty()) return std::nullopt;
    return value;
  }

 private:
  bool literal(std::string_view text) {
    if (!rest_.starts_with(text)) return false;
    rest_.remove_prefix(text.size());
    return true;
  }
  /// The characters up to the closing quote, which must be written verbatim (see written_verbatim):
  /// no escape, no control character, valid UTF-8 of at most 3 bytes per character.
  bool string_body(std::string_view& out) {
    const std::size_t end = rest_.find('"');
    if (end == std::string_view::npos) return false;
    out = rest_.substr(0, end);
    if (!written_verbatim(out)) return false;
    rest_.remove_prefix(end + 1);
    return true;
  }
  bool optional_string(std::optional<std::string>& out) {
    if (literal("null")) return true;
    std::string_view text;
    if (!literal("\"") || !string_body(text)) return false;
    out.emplace(text);
    return true;
  }
  /// A JSON integer of at most 10 digits (no leading zero), as Long.intValue() of it.
  bool small_integer(int32_t& out) {
    std::size_t i = 0;
    const bool negative = i < rest_.size() && rest_[i] == '-';
    if (negative) ++i;
    const std::size_t first = i;
    int64_t magnitude = 0;
    while (i < rest_.size() && rest_[i] >= '0' && rest_[i] <= '9' && i - first < 10) {
      magnitude = magnitude * 10 + (rest_[i] - '0');
      ++i;
    }
    const std::size_t digits = i - first;
    if (digits == 0 || (digits > 1 && rest_[first] == '0')) return false;
    if (i < rest_.size() && ((rest_[i] >= '0' && rest_[i] <= '9') || rest_[i] == '.' || rest_[i] == 'e' || rest_[i] == 'E'))
      return false;  // longer, or a float: the library path
    out = java_int_value(negative ? -magnitude : magnitude);
    rest_.remove_prefix(i);
    return true;
  }

  std::string_view rest_;
};

}  // namespace

decoded<status_value> decode_status_value(std::string_view bytes) {
  if (auto value = verbatim_status_reader{bytes}.read()) return std::move(*value);
  return decode_status_value_with_library(bytes);
}

decoded<status_value> decode_status_value_with_library(std::string_view bytes) {
  auto parsed = parse_json(bytes);
  if (auto* err = std::get_if<decode_error>(&parsed)) return std::move(*err);
  const json& root = std::get<json>(parsed);
  if (!root.is_object()) return decode_error{std::string("value is not a JSON object but ") + root.type_name()};

  status_value value;

  // TaskStatus.State.valueOf((String) map.get("state")) — used for connectors too.
  const json* state = find_field(root, "state");
  if (absent_or_null(state)) return field_error("state", "is missing or null");
  if (!state->is_string()) return field_error("state", "is not a string");
  const std::string& state_name = state->get_ref<const std::string&>();
  const std::optional<status_state> parsed_state = parse_status_state(state_name);
  if (!parsed_state) return decode_error{"unknown state '" + state_name + "'"};
  value.state = *parsed_state;

  // (String) map.get("trace"): absent or null is no trace.
  const json* trace = find_field(root, "trace");
  if (!absent_or_null(trace)) {
    if (!trace->is_string()) return field_error("trace", "is not a string or null");
    value.trace = trace->get<std::string>();
  }

  // (String) map.get("worker_id"). Java would also accept a missing worker_id as null (and later
  // fail on it in putSafe); we reject the record instead.
  auto worker = required_string(root, "worker_id");
  if (auto* err = std::get_if<decode_error>(&worker)) return std::move(*err);
  value.worker_id = std::move(std::get<std::string>(worker));

  // ((Long) map.get("generation")).intValue()
  auto generation = required_long(root, "generation");
  if (auto* err = std::get_if<decode_error>(&generation)) return std::move(*err);
  value.generation = java_int_value(std::get<int64_t>(generation));

  // (String) map.get("version") (Connect 4.1+): absent (Connect 3.x, 4.0) or null is no version.
  const json* version = find_field(root, "version");
  if (!absent_or_null(version)) {
    if (!version->is_string()) return field_error("version", "is not a string or null");
    value.version = version->get<std::string>();
  }

  return value;
}

decoded<topic_status> decode_topic_value(std::string_view bytes) {
  auto parsed = parse_json(bytes);
  if (auto* err = std::get_if<decode_error>(&parsed)) return std::move(*err);
  const json& root = std::get<json>(parsed);
  if (!root.is_object()) return decode_error{std::string("value is not a JSON object but ") + root.type_name()};

  const json* inner = find_field(root, "topic");
  if (inner == nullptr || !inner->is_object()) return field_error("topic", "is missing or not an object");

  topic_status status;
  // new TopicStatus((String) name, (String) connector, ((Long) task).intValue(), (long) discoverTimestamp),
  // whose constructor requires non-null name and connector.
  auto name = required_string(*inner, "name");
  if (auto* err = std::get_if<decode_error>(&name)) return std::move(*err);
  status.topic = std::move(std::get<std::string>(name));

  auto connector = required_string(*inner, "connector");
  if (auto* err = std::get_if<decode_error>(&connector)) return std::move(*err);
  status.connector = std::move(std::get<std::string>(connector));

  auto task = required_long(*inner, "task");
  if (auto* err = std::get_if<decode_error>(&task)) return std::move(*err);
  status.task = java_int_value(std::get<int64_t>(task));

  auto timestamp = required_long(*inner, "discoverTimestamp");
  if (auto* err = std::get_if<decode_error>(&timestamp)) return std::move(*err);
  status.discover_timestamp = std::get<int64_t>(timestamp);

  return status;
}

// --- whole records ----------------------------------------------------------------------------------

status_record encode_connector_record(const connector_status& status) {
  status_record record{connector_key(status.connector), std::nullopt};
  if (status.value.state != status_state::destroyed) record.value = encode_status_value(status.value);
  return record;
}

status_record encode_task_record(const task_status& status) {
  status_record record{task_key(status.connector, status.task), std::nullopt};
  if (status.value.state != status_state::destroyed) record.value = encode_status_value(status.value);
  return record;
}

status_record encode_topic_record(const topic_status& status) {
  return status_record{topic_key(status.topic, status.connector), encode_topic_value(status)};
}

status_record encode_topic_tombstone(std::string_view topic, std::string_view connector) {
  return status_record{topic_key(topic, connector), std::nullopt};
}

}  // namespace status_store
