#pragma once
// Values of a worker file read as Kafka's ConfigDef reads them (INT, SHORT, LONG, DOUBLE, Range),
// failing with config_error in Kafka's words and never showing a secret.
#include "config/config_error.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace status_store {

/// The config_error for `key`=`value` breaking `rule`; the value is masked if `key` is secret and
/// NUL characters are made visible.
config_error invalid(std::string_view key, std::string_view value, std::string rule);

/// A value as it may appear inside an error message: secrets masked, NUL characters made visible.
std::string displayed_value(std::string_view key, std::string_view value);

/// Formats a double the way Java prints one in a rule: "1.0", "0.25".
std::string format_double(double value);

/// Strict like Java's Integer.parseInt and friends: an optional sign and decimal digits, nothing
/// else. A number outside the type is "Not a number of type INT" (SHORT, LONG), as Kafka reports it.
/// Instantiated for int16_t, int32_t and int64_t.
template <typename Integer>
Integer parse_integer(std::string_view key, std::string_view value);

/// Strict decimal floating point: [sign] digits [. [digits]] | [sign] . digits, then an optional
/// exponent. Java's parseDouble also takes "NaN", "Infinity", hex floats and a trailing 'd' or 'f';
/// none has a use in a backoff setting, and NaN even slips through Kafka's Range validator, so they
/// are rejected.
double parse_double(std::string_view key, std::string_view value);

/// Kafka's Range validator, with its wording. Instantiated for int32_t, int64_t and double.
template <typename Number>
void require_in_range(std::string_view key, std::string_view value, Number parsed, Number min, Number max);

/// The client library takes settings as C strings, so an escaped \u0000 would silently cut a value short.
void require_no_nul(std::string_view key, std::string_view value);

}  // namespace status_store
