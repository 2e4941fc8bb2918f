#pragma once
// JSON read as Connect reads a status value: Jackson's ObjectMapper.readTree (the first JSON value;
// trailing content is not read; duplicate keys: the last wins; integers beyond 64 bits wrap as
// BigIntegerNode.longValue() does), then the casts KafkaStatusBackingStore applies to the schemaless
// map. Every failure is a decode_error; nothing throws.
#include "messages/codec/decode_result.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace status_store {

/// Jackson's readTree of `bytes`.
std::variant<nlohmann::json, decode_error> parse_json(std::string_view bytes);

decode_error field_error(std::string_view field, std::string_view problem);

/// Field lookup; nullptr when absent. A JSON null is returned as a null value (callers treat absent
/// and null alike, as Java's Map.get does).
const nlohmann::json* find_field(const nlohmann::json& object, const char* name);
bool absent_or_null(const nlohmann::json* v);

/// A required Java String field: `(String) map.get(name)` then used as non-null.
std::variant<std::string, decode_error> required_string(const nlohmann::json& object, const char* name);

/// `((Long) map.get(name))`: any JSON integer, as its (already 64-bit wrapped) long value. Floats
/// are Doubles/BigDecimals in Java: ClassCastException.
std::variant<int64_t, decode_error> required_long(const nlohmann::json& object, const char* name);

/// Long.intValue(): keep the low 32 bits.
int32_t java_int_value(int64_t v);

}  // namespace status_store
