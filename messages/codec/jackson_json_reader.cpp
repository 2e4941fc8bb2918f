// Jackson's readTree and the casts KafkaStatusBackingStore applies to the schemaless map.
#include "messages/codec/jackson_json_reader.hpp"

#include <exception>
#include <optional>
#include <utility>

namespace status_store {

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

}  // namespace

std::variant<nlohmann::json, decode_error> parse_json(std::string_view bytes) {
  json root;
  jackson_like_sax sax(root);
  try {
    const bool ok = json::sax_parse(bytes.begin(), bytes.end(), &sax, json::input_format_t::json,
                                    /*strict=*/false);
    if (!ok) {
      return decode_error{"value is not JSON: " + (sax.error().empty() ? std::string("parse failed") : sax.error()),
                          "value is not JSON"};
    }
  } catch (const std::exception& e) {
    return decode_error{std::string("value is not JSON: ") + e.what(), "value is not JSON"};
  }
  return root;
}

decode_error field_error(std::string_view field, std::string_view problem) {
  std::string reason = "field '";
  reason.append(field).append("' ").append(problem);
  return decode_error{reason, reason};  // the field's name is the codec's, never the record's
}

const nlohmann::json* find_field(const nlohmann::json& object, const char* name) {
  const auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

bool absent_or_null(const nlohmann::json* v) { return v == nullptr || v->is_null(); }

std::variant<std::string, decode_error> required_string(const nlohmann::json& object, const char* name) {
  const json* v = find_field(object, name);
  if (absent_or_null(v)) return field_error(name, "is missing or null");
  if (!v->is_string()) return field_error(name, "is not a string");
  return v->get<std::string>();
}

std::variant<int64_t, decode_error> required_long(const nlohmann::json& object, const char* name) {
  const json* v = find_field(object, name);
  if (absent_or_null(v)) return field_error(name, "is missing or null");
  if (v->is_number_unsigned()) return static_cast<int64_t>(v->get<uint64_t>());  // wraps like longValue()
  if (v->is_number_integer()) return v->get<int64_t>();
  return field_error(name, "is not an integer");
}

int32_t java_int_value(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

}  // namespace status_store
