#include "config/worker_config.hpp"
#include "config/setting_keys.hpp"

#include "config/ascii.hpp"
#include "config/client_settings.hpp"
#include "config/config_error.hpp"
#include "config/kafka_value_parsing.hpp"
#include "config/rest_settings.hpp"
#include "config/secret_masking.hpp"
#include "config/security_settings.hpp"
#include "config/worker_settings.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <span>
#include <string_view>

namespace status_store {

// ---- worker_config ---------------------------------------------------------------------------------

std::string worker_config::client_id_base() const {
  // Connect's ConnectUtils.clientIdBase.
  return client_id.empty() ? group_id + "-" : group_id + "-" + client_id + "-";
}

namespace {

// Sub-namespaces of status.storage.* that belong to status-store, not to the topic. A typo there
// (status.storage.retry.max.retry) must be reported as unknown rather than sent to the broker as a
// topic config, where it would fail topic creation with a far less helpful error.
constexpr std::array<std::string_view, 4> own_status_storage_prefixes{
    "status.storage.retry.", "status.storage.shutdown.", "status.storage.startup.", "status.storage.trace."};

// Keys of a real Connect worker file that status-store has no use for. Kafka's own
// connect-distributed.properties sample contains all of these, so warning about them would only teach
// operators to ignore warnings.
// (The REST listener's keys are parse_rest_settings', see is_rest_setting.)
constexpr std::array<std::string_view, 6> ignored_connect_keys{
    "key.converter",        "value.converter",      "header.converter",
    "offset.storage.topic", "config.storage.topic", "plugin.path",
};
constexpr std::array<std::string_view, 7> ignored_connect_prefixes{
    "key.converter.", "value.converter.", "header.converter.", "offset.storage.",
    "offset.flush.",  "config.storage.",  "internal.",
};

bool starts_with_any(std::string_view key, const auto& prefixes) {
  for (const std::string_view prefix : prefixes) {
    if (key.starts_with(prefix)) return true;
  }
  return false;
}

bool equals_any(std::string_view key, const auto& names) {
  for (const std::string_view name : names) {
    if (key == name) return true;
  }
  return false;
}

// The client library's names that set the same property as a forced one; setting either replaces the other.
struct forced_alias {
  std::string_view alias;
  std::string_view forced_key;
};
constexpr std::array<forced_alias, 4> producer_aliases{{
    {"request.required.acks", "acks"},
    {"message.send.max.retries", "retries"},
    {"max.in.flight", "max.in.flight.requests.per.connection"},
    {"delivery.timeout.ms", "message.timeout.ms"},
}};

bool same_setting_value(std::string_view forced_key, std::string_view user_value, std::string_view forced_value) {
  const std::string user = ascii_lowercase(user_value);
  if (forced_key == "acks" && user == "-1") return forced_value == "all";
  return user == ascii_lowercase(forced_value);
}

class worker_config_parser {
 public:
  worker_config_parser(const properties& props, std::vector<std::string>* warnings)
      : props_{props}, warnings_{warnings} {}

  worker_config parse() {
    for (const setting_def<worker_config>& def : worker_settings()) {
      const std::optional<std::string_view> value = value_of(def.key);
      if (value || def.required) def.apply(def.key, value.value_or(""), config_);
      if (def.cross_check != nullptr) def.cross_check(config_);
    }
    sort_remaining_keys();
    // Java's security names (sasl.jaas.config, ssl.truststore.*) become the client library's, or fail here.
    translate_security_settings(config_, warnings_);
    warn_about_replaced_overrides();
    return std::move(config_);
  }

 private:
  void warn(std::string message) {
    if (warnings_ != nullptr) warnings_->push_back(std::move(message));
  }

  /// The trimmed value of `key`, if it was given.
  std::optional<std::string_view> value_of(std::string_view key) const {
    const auto found = props_.find(std::string{key});
    if (found == props_.end()) return std::nullopt;
    return java_trim(found->second);
  }

  /// Everything that is not a scalar setting read above: pass-through maps, ignored and unknown keys.
  void sort_remaining_keys() {
    for (const auto& [key, raw_value] : props_) {
      const std::string_view name = key;
      const std::string_view value = java_trim(raw_value);
      if (find_setting(worker_settings(), name) != nullptr) continue;  // parsed from the table
      // The REST listener's (admin.listeners is no admin. client override, ssl.client.auth no client
      // setting): parse_rest_settings reads and checks them.
      if (is_rest_setting(name)) continue;
      if (name == keys::cleanup_policy) {
        // DistributedConfig.topicSettings drops it the same way: the status topic must be compacted.
        warn("Ignoring '" + key + "=" + mask_if_secret(key, value) + "' setting, since compaction is always used");
        continue;
      }
      if (name.starts_with(keys::status_prefix) && !starts_with_any(name, own_status_storage_prefixes)) {
        if (pass_through(name, value, keys::status_prefix, config_.topic_settings)) continue;
      } else if (name.starts_with(keys::producer_prefix)) {
        if (pass_through(name, value, keys::producer_prefix, config_.producer_overrides)) continue;
      } else if (name.starts_with(keys::consumer_prefix)) {
        if (pass_through(name, value, keys::consumer_prefix, config_.consumer_overrides)) continue;
      } else if (name.starts_with(keys::admin_prefix)) {
        if (pass_through(name, value, keys::admin_prefix, config_.admin_overrides)) continue;
      } else if (name == keys::security_protocol || name.starts_with("sasl.") || name.starts_with("ssl.")) {
        require_no_nul(name, value);
        config_.security_settings.insert_or_assign(key, std::string{value});
        continue;
      } else if (equals_any(name, ignored_connect_keys) || starts_with_any(name, ignored_connect_prefixes)) {
        continue;
      }
      // Kafka's AbstractConfig.logUnused wording. Not fatal, as there: a typo costs a warning, not
      // an outage.
      warn("Unknown configuration '" + key + "' was supplied but isn't a known config.");
    }
  }

  /// Stores `name` without `prefix` in `target`; false for the bare prefix, which names nothing.
  static bool pass_through(std::string_view name, std::string_view value, std::string_view prefix,
                           std::map<std::string, std::string>& target) {
    if (name.size() == prefix.size()) return false;
    require_no_nul(name, value);
    target.insert_or_assign(std::string{name.substr(prefix.size())}, std::string{value});
    return true;
  }

  void warn_about_replaced_overrides() {
    warn_about_replaced(keys::producer_prefix, config_.producer_overrides, forced_producer_settings(config_),
                        producer_aliases);
    warn_about_replaced(keys::consumer_prefix, config_.consumer_overrides, forced_consumer_settings(config_), {});
    warn_about_replaced(keys::admin_prefix, config_.admin_overrides, forced_admin_settings(config_), {});
  }

  void warn_about_replaced(std::string_view prefix, const std::map<std::string, std::string>& overrides,
                           const kafka_settings& forced, std::span<const forced_alias> aliases) {
    for (const auto& [key, value] : overrides) {
      std::string_view forced_key = key;
      for (const auto& [alias, aliased_key] : aliases) {
        if (key == alias) forced_key = aliased_key;
      }
      for (const auto& [forced_name, forced_value] : forced) {
        if (forced_name != forced_key || same_setting_value(forced_key, value, forced_value)) continue;
        const std::string full_key = std::string{prefix} + key;
        std::string note = "Ignoring '" + full_key + "=" + mask_if_secret(full_key, value) +
                           "' setting, since status-store always uses " + forced_name + "=" + forced_value;
        if (forced_name == "message.timeout.ms") note += " (set " + std::string{keys::message_timeout_ms} + ")";
        if (forced_name == "client.id" || forced_name == "group.id") {
          note += " (derived from group.id and client.id)";
        }
        warn(std::move(note));
      }
    }
  }

  const properties& props_;
  std::vector<std::string>* warnings_;
  worker_config config_;
};

}  // namespace

worker_config parse_worker_config(const properties& props, std::vector<std::string>* warnings) {
  return worker_config_parser{props, warnings}.parse();
}

std::vector<std::pair<std::string, std::string>> effective_config(const worker_config& config) {
  std::map<std::string, std::string> settings;
  for (const setting_def<worker_config>& def : worker_settings())
    settings.emplace(def.key, def.show(config).value_or(""));
  const auto add_prefixed = [&settings](std::string_view prefix, const std::map<std::string, std::string>& layer) {
    // Our own settings come first in the map, so a pass-through entry can never replace one.
    for (const auto& [key, value] : layer) settings.emplace(std::string{prefix} + key, value);
  };
  add_prefixed(keys::status_prefix, config.topic_settings);
  add_prefixed(keys::producer_prefix, config.producer_overrides);
  add_prefixed(keys::consumer_prefix, config.consumer_overrides);
  add_prefixed(keys::admin_prefix, config.admin_overrides);
  add_prefixed("", config.security_settings);

  std::vector<std::pair<std::string, std::string>> sorted;
  sorted.reserve(settings.size());
  for (const auto& [key, value] : settings) sorted.emplace_back(key, mask_if_secret(key, value));
  return sorted;
}

}  // namespace status_store
