#include "config/secret_masking.hpp"

#include "config/ascii.hpp"

#include <array>
#include <string>

namespace status_store {

bool is_secret_property(std::string_view key) {
  // Case-insensitive on purpose: a false positive only hides a value from a log, a false negative
  // leaks a credential. Kafka's keys are lower case, but a hand-written "SSL.Key.Password" is still
  // a password.
  const std::string name = ascii_lowercase(key);
  if (name.find("password") != std::string::npos || name.find("secret") != std::string::npos) return true;
  // Contained rather than equal, so prefixed forms like producer.sasl.jaas.config or a broker-style
  // listener.name.x.sasl.jaas.config are hidden too.
  if (name.find("sasl.jaas.config") != std::string::npos) return true;
  std::string_view unprefixed = name;
  for (const std::string_view prefix : std::array<std::string_view, 3>{"producer.", "consumer.", "admin."}) {
    if (unprefixed.starts_with(prefix)) {
      unprefixed.remove_prefix(prefix.size());
      break;
    }
  }
  // ssl.key.password, ssl.keystore.password, and the client library's ssl.key.pem (the private key itself).
  return unprefixed.starts_with("ssl.key");
}

std::string mask_if_secret(std::string_view key, std::string_view value) {
  return is_secret_property(key) ? std::string{masked_value} : std::string{value};
}

}  // namespace status_store
