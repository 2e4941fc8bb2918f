#pragma once
// Secrets never reach a log, an error message, check-config output or /metrics. A key of a settings
// table (config/setting_def.hpp) is secret as its row says. Any other property is secret, whatever its
// prefix, when its name contains "password", "secret" or "jaas.config" (but
// not a file name's: status.rest.jaas.config.file) or "webhook.headers" (a webhook's token), or its
// last dot-separated segment is password, secret, key, token, passphrase or pem (but not a
// certificate's: ssl.certificate.pem, ssl.ca.pem), as Kafka's PASSWORD settings are named; also
// ssl.key.* and ssl.keystore.location after stripping producer./consumer./admin./listeners.https.
// Certificates (ssl.keystore.certificate.chain, ssl.truststore.certificates) are not secret. Masked
// values print as Kafka prints a Password: "[hidden]".
#include <string>
#include <string_view>

namespace status_store {

inline constexpr std::string_view masked_value = "[hidden]";

bool is_secret_property(std::string_view key);

/// The name pattern alone, for keys no settings table has.
bool is_secret_by_name(std::string_view key);

/// The value itself, or "[hidden]" if `key` names a secret.
std::string mask_if_secret(std::string_view key, std::string_view value);

}  // namespace status_store
