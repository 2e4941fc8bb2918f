// Kafka's ConfigDef value types and Range validator, with Kafka's wording in every error.
#include "config/kafka_value_parsing.hpp"

#include "config/ascii.hpp"
#include "config/secret_masking.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <system_error>
#include <type_traits>

namespace status_store {

namespace {

/// Kafka's ConfigDef type names, used in "Not a number of type INT".
template <typename Integer>
constexpr std::string_view integer_type_name() {
  if constexpr (std::is_same_v<Integer, int16_t>) return "SHORT";
  if constexpr (std::is_same_v<Integer, int32_t>) return "INT";
  if constexpr (std::is_same_v<Integer, int64_t>) return "LONG";
}

/// The decimal exponent of the first significant digit of a number already known to match
/// digits[.digits][e[sign]digits], saturated. Only used to tell overflow from underflow.
int64_t decimal_magnitude(std::string_view number) {
  const std::size_t exponent_at = number.find_first_of("eE");
  int64_t exponent = 0;
  if (exponent_at != std::string_view::npos) {
    std::string_view exponent_text = number.substr(exponent_at + 1);
    const bool negative = exponent_text.starts_with('-');
    if (exponent_text.starts_with('-') || exponent_text.starts_with('+')) exponent_text.remove_prefix(1);
    for (const char c : exponent_text) exponent = std::min<int64_t>(exponent * 10 + (c - '0'), 1'000'000'000);
    if (negative) exponent = -exponent;
    number = number.substr(0, exponent_at);
  }
  const std::size_t point = std::min(number.find('.'), number.size());
  const std::size_t first_significant = number.find_first_of("123456789");
  if (first_significant == std::string_view::npos) return std::numeric_limits<int64_t>::min();
  const auto position = static_cast<int64_t>(first_significant);
  const auto point_position = static_cast<int64_t>(point);
  return exponent + (position < point_position ? point_position - position - 1 : point_position - position);
}

}  // namespace

std::string format_double(double value) {
  std::array<char, 64> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  std::string text{buffer.data(), result.ptr};
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // 'n': inf and nan stay as they are
  return text;
}

std::string displayed_value(std::string_view key, std::string_view value) {
  std::string shown;
  for (const char c : mask_if_secret(key, value)) {
    if (c == '\0') {
      shown += "\\u0000";
    } else {
      shown += c;
    }
  }
  return shown;
}

config_error invalid(std::string_view key, std::string_view value, std::string rule) {
  return config_error(std::string{key}, displayed_value(key, value), std::move(rule));
}

template <typename Integer>
Integer parse_integer(std::string_view key, std::string_view value) {
  std::string_view digits = value;
  const bool plus_sign = digits.starts_with('+');
  if (plus_sign) digits.remove_prefix(1);  // from_chars takes '-' but not '+'
  const std::string_view unsigned_digits = !plus_sign && digits.starts_with('-') ? digits.substr(1) : digits;
  const bool only_digits =
      !unsigned_digits.empty() && unsigned_digits.find_first_not_of("0123456789") == std::string_view::npos;
  Integer parsed{};
  if (only_digits) {
    const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), parsed);
    if (result.ec == std::errc{} && result.ptr == digits.data() + digits.size()) return parsed;
  }
  throw invalid(key, value, "Not a number of type " + std::string{integer_type_name<Integer>()});
}

double parse_double(std::string_view key, std::string_view value) {
  std::string_view number = value;
  if (number.starts_with('+') || number.starts_with('-')) number.remove_prefix(1);
  std::size_t pos = 0;
  const auto skip_digits = [&] {
    const std::size_t begin = pos;
    while (pos < number.size() && number[pos] >= '0' && number[pos] <= '9') ++pos;
    return pos - begin;
  };
  std::size_t mantissa_digits = skip_digits();
  if (pos < number.size() && number[pos] == '.') {
    ++pos;
    mantissa_digits += skip_digits();
  }
  bool well_formed = mantissa_digits > 0;
  if (well_formed && pos < number.size() && (number[pos] == 'e' || number[pos] == 'E')) {
    ++pos;
    if (pos < number.size() && (number[pos] == '+' || number[pos] == '-')) ++pos;
    well_formed = skip_digits() > 0;
  }
  if (!well_formed || pos != number.size()) {
    const std::string lower = ascii_lowercase(number);
    if (lower == "inf" || lower == "infinity" || lower == "nan") {
      throw invalid(key, value, "Value must be a finite number");
    }
    throw invalid(key, value, "Not a number of type DOUBLE");
  }
  const bool negative = value.starts_with('-');
  double parsed = 0.0;
  const auto result = std::from_chars(number.data(), number.data() + number.size(), parsed);
  if (result.ec == std::errc::result_out_of_range) {
    // from_chars leaves the value alone for both directions; Java would give infinity or zero.
    if (decimal_magnitude(number) > 0) throw invalid(key, value, "Value must be a finite number");
    parsed = 0.0;
  }
  return negative ? -parsed : parsed;
}

template <typename Number>
void require_in_range(std::string_view key, std::string_view value, Number parsed, Number min, Number max) {
  const auto shown = [](Number bound) {
    if constexpr (std::is_floating_point_v<Number>) {
      return format_double(bound);
    } else {
      return std::to_string(bound);
    }
  };
  if (parsed < min) throw invalid(key, value, "Value must be at least " + shown(min));
  if (parsed > max) throw invalid(key, value, "Value must be no more than " + shown(max));
}

void require_no_nul(std::string_view key, std::string_view value) {
  if (value.find('\0') != std::string_view::npos) {
    throw invalid(key, value, "Must not contain a NUL character (\\u0000)");
  }
}

template int16_t parse_integer<int16_t>(std::string_view, std::string_view);
template int32_t parse_integer<int32_t>(std::string_view, std::string_view);
template int64_t parse_integer<int64_t>(std::string_view, std::string_view);
template void require_in_range<int32_t>(std::string_view, std::string_view, int32_t, int32_t, int32_t);
template void require_in_range<int64_t>(std::string_view, std::string_view, int64_t, int64_t, int64_t);
template void require_in_range<double>(std::string_view, std::string_view, double, double, double);

}  // namespace status_store
