#pragma once
// One row per setting, in the style of Kafka's ConfigDef: key, type, validator, documentation, the
// default and why, secret or not. The worker's table (config/worker_settings.cpp) parses, validates
// and prints its settings from it; the REST listener's (config/rest_setting_defs.cpp) has rows of the
// same type. Both are docs/configuration.md's tables, which a unit test keeps equal, and they decide
// which of their keys check-config, warnings and errors mask.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace status_store {

/// ConfigDef.Type, as the docs name them.
enum class setting_type { string, list, int_, short_, long_, double_, boolean, password };

constexpr std::string_view type_name(setting_type type) {
  switch (type) {
    case setting_type::string:
      return "string";
    case setting_type::list:
      return "list";
    case setting_type::int_:
      return "int";
    case setting_type::short_:
      return "short";
    case setting_type::long_:
      return "long";
    case setting_type::double_:
      return "double";
    case setting_type::boolean:
      return "boolean";
    case setting_type::password:
      return "password";
  }
  return "";
}

template <typename Config>
struct setting_def {
  std::string_view key;
  setting_type type;
  /// The validator's rule as the docs state it (its error wording is in `apply`).
  std::string_view valid_values;
  std::string_view documentation;
  /// Why the default is what it is.
  std::string_view default_reason;
  bool secret = false;
  /// Applied with "" when the key is missing (its own error then names the property to set).
  bool required = false;
  /// Parses the trimmed value, validates it (config_error naming the key and the rule) and stores it;
  /// null for a row whose key is read by its own parser (the REST listener's).
  void (*apply)(std::string_view key, std::string_view value, Config& config) = nullptr;
  /// The value as check-config prints it (unmasked), nullopt when it is not in effect (a TLS setting
  /// without an https listener); also gives the documented default, from Config{}.
  std::optional<std::string> (*show)(const Config& config) = nullptr;
  /// The documented default (markdown) instead of show(Config{}); "" = none.
  std::string_view default_text = {};
  /// A rule across this row and those above it, checked right after them whether or not this key was
  /// given (the KIP's initial <= max backoff, which ConfigDef leaves to the config class).
  void (*cross_check)(const Config& config) = nullptr;
};

/// The row of `key` in `table`, if it has one.
template <typename Config>
const setting_def<Config>* find_setting(std::span<const setting_def<Config>> table, std::string_view key) {
  for (const setting_def<Config>& def : table) {
    if (def.key == key) return &def;
  }
  return nullptr;
}

/// The default as docs/configuration.md shows it: **required**, the row's own text, `value` (from
/// Config{}), or — for none.
template <typename Config>
std::string documented_default(const setting_def<Config>& def) {
  if (def.required) return "**required**";
  if (!def.default_text.empty()) return std::string{def.default_text};
  const std::string value = def.show == nullptr ? "" : def.show(Config{}).value_or("");
  return value.empty() ? "—" : "`" + value + "`";
}

/// The cells of its row in docs/configuration.md: `key`, type, default, valid values, meaning, why.
template <typename Config>
std::vector<std::string> doc_cells(const setting_def<Config>& def) {
  return {"`" + std::string{def.key} + "`", std::string{type_name(def.type)}, documented_default(def),
          std::string{def.valid_values},    std::string{def.documentation},   std::string{def.default_reason}};
}

/// Whether a table declares `key` secret; nullopt when neither table has it (then its name decides,
/// config/secret_masking.hpp).
std::optional<bool> declared_secret(std::string_view key);

}  // namespace status_store
