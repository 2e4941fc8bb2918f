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

  const std::string& property() const noexcept { return property_; }
  const std::string& value() const noexcept { return value_; }
  const std::string& rule() const noexcept { return rule_; }

 private:
  std::string property_;
  std::string value_;
  std::string rule_;
};

}  // namespace status_store
