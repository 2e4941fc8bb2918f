// Status and topic values: a verbatim fast path for the form Connect itself writes, and the JSON
// library with Jackson's byte rules for everything else; both give the same bytes and the same
// decoded value (unit tests and the fuzzer compare them).
#include "messages/codec/status_value_codec.hpp"

#include "messages/codec/jackson_json_reader.hpp"
#include "messages/codec/jackson_json_writer.hpp"

#include <optional>
#include <utility>

namespace status_store {

namespace {
using json = nlohmann::json;
}  // namespace

std::string encode_status_value(const status_value& value) {
  std::string out;
  encode_status_value_into(value, out);
  return out;
}

void encode_status_value_into(const status_value& value, std::string& out) {
  // Fast path, byte-identical to the library path below (a unit test compares them over random
  // inputs): taken when every string is written verbatim, which is nearly always. It is the hot
  // path of every put, so it matters: about 10x cheaper than building and rewriting a JSON tree.
  if (written_verbatim(value.worker_id) && (!value.trace || written_verbatim(*value.trace)) &&
      (!value.version || written_verbatim(*value.version))) {
    out.clear();
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
    return;
  }
  out = encode_status_value_with_library(value);
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
    if (i < rest_.size() &&
        ((rest_[i] >= '0' && rest_[i] <= '9') || rest_[i] == '.' || rest_[i] == 'e' || rest_[i] == 'E'))
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
  if (!root.is_object())
    return decode_error{std::string("value is not a JSON object but ") + root.type_name(),
                        "value is not a JSON object"};

  status_value value;

  // TaskStatus.State.valueOf((String) map.get("state")) — used for connectors too.
  const json* state = find_field(root, "state");
  if (absent_or_null(state)) return field_error("state", "is missing or null");
  if (!state->is_string()) return field_error("state", "is not a string");
  const std::string& state_name = state->get_ref<const std::string&>();
  const std::optional<status_state> parsed_state = parse_status_state(state_name);
  if (!parsed_state) return decode_error{"unknown state '" + state_name + "'", "unknown state"};
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
  if (!root.is_object())
    return decode_error{std::string("value is not a JSON object but ") + root.type_name(),
                        "value is not a JSON object"};

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

}  // namespace status_store
