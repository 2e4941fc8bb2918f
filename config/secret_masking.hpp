#pragma once
// Secrets never reach a log, an error message, check-config output or /metrics. A property is
// secret when its name contains "password" or "secret", is "sasl.jaas.config", or starts with
// "ssl.key" (after stripping a producer./consumer./admin. prefix). Masked values print as Kafka
// prints a Password: "[hidden]".
#include <string>
#include <string_view>

namespace status_store {

inline constexpr std::string_view masked_value = "[hidden]";

bool is_secret_property(std::string_view key);

/// The value itself, or "[hidden]" if `key` names a secret.
std::string mask_if_secret(std::string_view key, std::string_view value);

}  // namespace status_store
