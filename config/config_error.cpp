#include "config/config_error.hpp"

#include <utility>

namespace status_store {

config_error::config_error(std::string property, std::string value, std::string rule)
    // Kafka's ConfigException(name, value, message) wording, so operators recognize it. The parts are
    // copied, not moved: argument evaluation order is unspecified, and the message reads them.
    : config_error(whole_message_tag{}, "Invalid value " + value + " for configuration " + property + ": " + rule,
                   property, value, rule) {}

config_error::config_error(whole_message_tag, std::string what, std::string property, std::string value,
                           std::string rule)
    : std::runtime_error(what), property_{std::move(property)}, value_{std::move(value)}, rule_{std::move(rule)} {}

config_error config_error::with_message(std::string property, std::string value, std::string message) {
  return config_error(whole_message_tag{}, message, std::move(property), std::move(value), message);
}

}  // namespace status_store
