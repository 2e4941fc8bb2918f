#pragma once
// The one error type of configuration parsing and validation. It names the property, the offending
// value (masked when the property holds a secret) and the rule that was broken, so an operator can
// fix the file without reading code. The CLI prints what() and exits 2.
#include <stdexcept>
#include <string>

namespace status_store {

class config_error : public std::runtime_error {
 public:
  /// `value` must already be masked by the caller if the property is secret.
  config_error(std::string property, std::string value, std::string rule);

  /// Kafka's ConfigException(String message) form: what() is `message` alone, without the
  /// "Invalid value ... for configuration ..." frame; property(), value() and rule() are still set
  /// (rule() is `message`). Used where Connect words the whole sentence itself, e.g. a blank
  /// status.storage.topic: "Must specify topic for connector status."
  static config_error with_message(std::string property, std::string value, std::string message);

  const std::string& property() const noexcept { return property_; }
  const std::string& value() const noexcept { return value_; }
  const std::string& rule() const noexcept { return rule_; }

 private:
  struct whole_message_tag {};
  config_error(whole_message_tag, std::string what, std::string property, std::string value, std::string rule);

  std::string property_;
  std::string value_;
  std::string rule_;
};

}  // namespace status_store
