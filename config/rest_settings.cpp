// parse_rest_settings: Connect's RestServerConfig and RestServer.createConnector rules, with their
// wording; the TLS settings are in rest_tls_settings.cpp, Basic auth in rest_basic_auth.cpp.
#include "config/rest_settings.hpp"
#include "config/setting_keys.hpp"

#include "config/ascii.hpp"
#include "config/config_error.hpp"
#include "config/kafka_value_parsing.hpp"
#include "config/rest_setting_defs.hpp"
#include "config/rest_settings_parts.hpp"
#include "config/secret_masking.hpp"

#include <algorithm>
#include <array>
#include <map>

namespace status_store {

namespace {

constexpr std::array<std::string_view, 3> advertised_keys{"rest.advertised.host.name", keys::advertised_port,
                                                          "rest.advertised.listener"};
// Removed from Connect in 3.0 (KAFKA-12482); a Connect 4 worker ignores them too.
constexpr std::array<std::string_view, 2> removed_keys{"rest.host.name", "rest.port"};

constexpr std::string_view listener_format = "Listener doesn't have the right format (protocol://hostname:port)";

bool is_host_char(char c) { return is_ascii_alnum(c) || c == '-' || c == '%' || c == '.' || c == '_' || c == ':'; }

/// RestServer's LISTENER_PATTERN, ^(.*)://\[?([0-9a-zA-Z\-%._:]*)\]?:(-?[0-9]+), matched whole; the
/// brackets must pair here, and the port must be one.
rest_listener parse_listener(std::string_view key, const std::string& item) {
  const std::size_t separator = item.find("://");
  if (separator == std::string::npos) throw invalid(key, item, std::string{listener_format});
  rest_listener listener{ascii_lowercase(item.substr(0, separator)), {}, 0, item};
  if (listener.scheme != "http" && listener.scheme != "https") {
    throw invalid(key, item, "Listener protocol must be either \"http\" or \"https\"");
  }
  const std::string_view rest = std::string_view{item}.substr(separator + 3);
  const std::size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos) throw invalid(key, item, std::string{listener_format});
  std::string_view host = rest.substr(0, colon);
  if (host.starts_with('[') && host.ends_with(']')) host = host.substr(1, host.size() - 2);
  if (!std::all_of(host.begin(), host.end(), is_host_char)) throw invalid(key, item, std::string{listener_format});
  listener.host = std::string{host};
  const std::string_view port = rest.substr(colon + 1);
  const bool digits = !port.empty() && std::all_of(port.begin() + (port.front() == '-'), port.end(),
                                                   [](char c) { return c >= '0' && c <= '9'; });
  if (!digits || port == "-") throw invalid(key, item, std::string{listener_format});
  if (port.front() == '-' || port.size() > 9 || std::stoi(std::string{port}) > 65535) {
    throw invalid(key, item, "The port must be from 0 to 65535");
  }
  listener.port = std::stoi(std::string{port});
  return listener;
}

bool equals_any(std::string_view key, const auto& names) {
  return std::find(names.begin(), names.end(), key) != names.end();
}

class rest_settings_parser {
 public:
  rest_settings_parser(const properties& props, std::string_view kafka_opts) : props_{props}, kafka_opts_{kafka_opts} {}

  rest_settings parse() {
    // The rows that stand alone; the TLS and Basic auth settings depend on each other and on a prefix.
    for (const setting_def<rest_settings>& def : rest_setting_defs()) {
      if (def.apply == nullptr) continue;
      if (const auto value = rest_parts::value_of(props_, def.key)) def.apply(def.key, *value, settings_);
    }
    note_unused_keys();
    if (settings_.has_https_listener()) settings_.tls = rest_parts::parse_tls_settings(props_, settings_.notes);
    settings_.basic_auth = rest_parts::parse_basic_auth(props_, kafka_opts_, settings_.notes);
    return std::move(settings_);
  }

 private:
  void note(std::string sentence) { settings_.notes.push_back(std::move(sentence)); }

  void note_unused_keys() {
    std::vector<std::string> admin, advertised, https_unused;
    for (const auto& [key, value] : props_) {
      if (!is_rest_setting(key)) continue;
      if (key == keys::admin_listeners || key.starts_with(keys::admin_https_prefix)) {
        admin.push_back(key);
      } else if (equals_any(key, advertised_keys)) {
        advertised.push_back(key);
      } else if (key.starts_with(keys::https_prefix)) {
        if (!settings_.has_https_listener()) https_unused.push_back(key);
      } else if (equals_any(key, removed_keys)) {
        note(key + " was removed from Kafka Connect in 3.0 (KAFKA-12482) and is ignored, as there; set listeners=" +
             "http://HOST:PORT instead");
      } else if (key == keys::response_headers) {
        note(key + " is not applied: status-store adds no configured response headers");
      } else if (key == keys::allow_methods && settings_.allow_origin.empty()) {
        note(key + " is not used without access.control.allow.origin, as in Connect");
      } else if (key == keys::client_auth && !settings_.has_https_listener()) {
        https_unused.push_back(key);
      } else if (find_setting(rest_setting_defs(), key) == nullptr) {
        note("Unknown configuration '" + key + "' was supplied but isn't a known config.");
      }
    }
    if (!admin.empty()) {
      note(rest_parts::join_list(admin) + ": accepted, not used; status-store serves no admin endpoints (Connect's " +
           "/admin/loggers), so nothing listens on admin.listeners");
    }
    if (!advertised.empty()) {
      note(rest_parts::join_list(advertised) +
           ": not used; status-store joins no Connect cluster, so it advertises no URL to " + "other workers");
    }
    if (!https_unused.empty())
      note(rest_parts::join_list(https_unused) + ": not used, since no listener in listeners is https");
  }

  const properties& props_;
  std::string_view kafka_opts_;
  rest_settings settings_;
};

}  // namespace

namespace rest_parts {

std::vector<rest_listener> parse_listeners(std::string_view key, std::string_view value, bool may_be_empty) {
  const std::vector<std::string> items = rest_parts::parse_list(value);
  if (items.empty() && !may_be_empty) {
    throw invalid(key, value, "At least one URL is expected, ex: http://localhost:8080,https://localhost:8443");
  }
  std::vector<rest_listener> listeners;
  for (const std::string& item : items) {
    if (item.empty()) throw invalid(key, value, "Empty URL found when parsing " + std::string{key} + " list");
    listeners.push_back(parse_listener(key, item));
  }
  return listeners;
}

std::optional<std::string_view> value_of(const properties& props, std::string_view key) {
  const auto found = props.find(std::string{key});
  if (found == props.end()) return std::nullopt;
  return java_trim(found->second);
}

std::string join_list(const std::vector<std::string>& items) {
  std::string joined;
  for (const auto& item : items) joined += (joined.empty() ? "" : ", ") + item;
  return joined;
}

std::vector<std::string> parse_list(std::string_view value) {
  value = java_trim(value);
  std::vector<std::string> items;
  if (value.empty()) return items;
  for (;;) {
    const std::size_t comma = std::min(value.find(','), value.size());
    items.emplace_back(java_trim(value.substr(0, comma)));
    if (comma == value.size()) return items;
    value.remove_prefix(comma + 1);
  }
}

}  // namespace rest_parts

bool rest_settings::has_https_listener() const {
  return std::any_of(listeners.begin(), listeners.end(), [](const rest_listener& l) { return l.scheme == "https"; });
}

bool is_rest_setting(std::string_view key) {
  return key == keys::listeners || key.starts_with("listeners.") || key == keys::admin_listeners ||
         key.starts_with("admin.listeners.") || key.starts_with("rest.") || key.starts_with("access.control.") ||
         key.starts_with("status.rest.") || key == keys::response_headers || key == keys::client_auth;
}

rest_settings parse_rest_settings(const properties& props, std::string_view kafka_opts) {
  return rest_settings_parser{props, kafka_opts}.parse();
}

std::vector<std::pair<std::string, std::string>> effective_rest_config(const rest_settings& settings) {
  std::map<std::string, std::string> rows;
  for (const setting_def<rest_settings>& def : rest_setting_defs()) {
    const std::optional<std::string> value = def.show == nullptr ? std::nullopt : def.show(settings);
    if (!value) continue;
    // A TLS setting is shown under the key it was read from (listeners.https.ssl.* or ssl.*).
    const std::string key =
        settings.tls && def.key.starts_with("ssl.") ? settings.tls->key(def.key) : std::string{def.key};
    rows.emplace(key, mask_if_secret(key, *value));
  }
  return {rows.begin(), rows.end()};
}

}  // namespace status_store
