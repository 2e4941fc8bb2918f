#include "config/secret_masking.hpp"

#include "config/ascii.hpp"
#include "config/setting_def.hpp"

#include <array>
#include <string>

namespace status_store {

namespace {

// Prefixes under which a setting keeps its meaning: the client overrides and the REST listeners' TLS
// settings (admin.listeners.https. is "admin." then "listeners.https.").
constexpr std::array<std::string_view, 4> setting_prefixes{"producer.", "consumer.", "admin.", "listeners.https."};

// The last name segments of Kafka's PASSWORD settings and of the client library's secrets:
// ssl.key.password, sasl.oauthbearer.client.credentials.client.secret, ssl.keystore.key,
// sasl.oauthbearer.assertion.private.key.passphrase, ssl.key.pem, ...
constexpr std::array<std::string_view, 6> secret_segments{"password", "secret", "key", "token", "passphrase", "pem"};

std::string_view last_segment(std::string_view name, std::size_t from_end = 0) {
  for (;;) {
    const std::size_t dot = name.rfind('.');
    if (from_end == 0) return dot == std::string_view::npos ? name : name.substr(dot + 1);
    if (dot == std::string_view::npos) return {};
    name = name.substr(0, dot);
    --from_end;
  }
}

bool has_secret_segment(std::string_view name) {
  const std::string_view last = last_segment(name);
  for (const std::string_view segment : secret_segments) {
    if (last != segment) continue;
    // A certificate in PEM is public: the client library's ssl.certificate.pem and ssl.ca.pem.
    const std::string_view before = last_segment(name, 1);
    return !(segment == "pem" && (before == "certificate" || before == "ca"));
  }
  return false;
}

}  // namespace

bool is_secret_property(std::string_view key) {
  // A key of a settings table is secret as its row says; every other key (a Kafka client's, a prefixed
  // form) by its name.
  const std::optional<bool> declared = declared_secret(key);
  return declared ? *declared : is_secret_by_name(key);
}

bool is_secret_by_name(std::string_view key) {
  // Case-insensitive on purpose: a false positive only hides a value from a log, a false negative
  // leaks a credential. Kafka's keys are lower case, but a hand-written "SSL.Key.Password" is still
  // a password.
  const std::string name = ascii_lowercase(key);
  if (name.find("password") != std::string::npos || name.find("secret") != std::string::npos) return true;
  // Contained rather than equal, so prefixed forms like producer.sasl.jaas.config or a broker-style
  // listener.name.x.sasl.jaas.config are hidden too; a file's name is not (status.rest.jaas.config.file).
  if (name.find("jaas.config") != std::string::npos && last_segment(name) != "file") return true;
  // A webhook's extra headers carry its token (status.alert.webhook.headers: Authorization: Bearer ...).
  if (name.find("webhook.headers") != std::string::npos) return true;
  if (has_secret_segment(name)) return true;
  std::string_view unprefixed = name;
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (const std::string_view prefix : setting_prefixes) {
      if (unprefixed.starts_with(prefix)) {
        unprefixed.remove_prefix(prefix.size());
        stripped = true;
      }
    }
  }
  // The private key's and the keystore's files (the client library's ssl.key.location, and
  // ssl.keystore.location), hidden as before.
  return unprefixed.starts_with("ssl.key.") || unprefixed == "ssl.keystore.location";
}

std::string mask_if_secret(std::string_view key, std::string_view value) {
  return is_secret_property(key) ? std::string{masked_value} : std::string{value};
}

}  // namespace status_store
