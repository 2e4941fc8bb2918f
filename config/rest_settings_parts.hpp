#pragma once
// The parts of parse_rest_settings (config/rest_settings.hpp), one file each: the HTTPS listener's TLS
// settings (rest_tls_settings.cpp) and Basic auth (rest_basic_auth.cpp). Internal to config/.
#include "config/rest_settings.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace status_store::rest_parts {

/// The value of `key` trimmed as Kafka's ConfigDef trims it, if it was given.
std::optional<std::string_view> value_of(const properties& props, std::string_view key);

/// ConfigDef's LIST: the trimmed value split at commas, each item trimmed; "" is the empty list, and
/// empty items are kept (so a validator can refuse them).
std::vector<std::string> parse_list(std::string_view value);

/// "a, b, c": keys or values named in one note.
std::string join_list(const std::vector<std::string>& items);

/// A LIST of listener URLs, each checked (RestServerConfig's validators, then createConnector).
std::vector<rest_listener> parse_listeners(std::string_view key, std::string_view value, bool may_be_empty);

/// ssl.client.auth as RestServerConfig validates it: exactly required, requested or none.
std::string parse_client_auth(std::string_view key, std::string_view value);

/// The HTTPS listeners' settings: from the listeners.https.* keys if any key has that prefix, else
/// from the unprefixed ssl.* keys (Connect's valuesWithPrefixAllOrNothing). Validated; notes name
/// the settings that are given but not used.
rest_tls_settings parse_tls_settings(const properties& props, std::vector<std::string>& notes);

/// Basic auth when rest.extension.classes names BasicAuthSecurityRestExtension (any other class is
/// refused); the JAAS and credentials files are read here.
std::optional<rest_basic_auth> parse_basic_auth(const properties& props, std::string_view kafka_opts,
                                                std::vector<std::string>& notes);

}  // namespace status_store::rest_parts
