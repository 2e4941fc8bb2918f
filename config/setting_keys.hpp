#pragma once
// Names the parsers compare against beyond the settings tables' own keys: prefixes and the keys a
// rule across settings refers to (config/worker_settings.cpp and rest_setting_defs.cpp hold the rest).
#include <string_view>

namespace status_store::keys {

// the worker's (config/worker_config.cpp)
constexpr std::string_view status_prefix = "status.storage.";
constexpr std::string_view cleanup_policy = "status.storage.cleanup.policy";
constexpr std::string_view message_timeout_ms = "producer.message.timeout.ms";
constexpr std::string_view producer_prefix = "producer.";
constexpr std::string_view consumer_prefix = "consumer.";
constexpr std::string_view admin_prefix = "admin.";
constexpr std::string_view security_protocol = "security.protocol";

// the REST listener's (config/rest_settings.cpp)
constexpr std::string_view listeners = "listeners";
constexpr std::string_view https_prefix = "listeners.https.";
constexpr std::string_view admin_listeners = "admin.listeners";
constexpr std::string_view admin_https_prefix = "admin.listeners.https.";
constexpr std::string_view advertised_port = "rest.advertised.port";
constexpr std::string_view allow_methods = "access.control.allow.methods";
constexpr std::string_view response_headers = "response.http.headers.config";
constexpr std::string_view client_auth = "ssl.client.auth";

}  // namespace status_store::keys
