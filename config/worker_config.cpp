#include "config/worker_config.hpp"

#include "config/ascii.hpp"
#include "config/client_settings.hpp"
#include "config/config_error.hpp"
#include "config/kafka_names.hpp"
#include "config/kafka_value_parsing.hpp"
#include "config/rest_settings.hpp"
#include "config/secret_masking.hpp"
#include "config/security_settings.hpp"
#include "messages/trace_truncation.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>
#include <type_traits>

namespace status_store {

// ---- worker_config ---------------------------------------------------------------------------------

std::string worker_config::client_id_base() const {
  // Connect's ConnectUtils.clientIdBase.
  return client_id.empty() ? group_id + "-" : group_id + "-" + client_id + "-";
}

namespace {

namespace keys {
constexpr std::string_view bootstrap_servers = "bootstrap.servers";
constexpr std::string_view group_id = "group.id";
constexpr std::string_view client_id = "client.id";
constexpr std::string_view status_prefix = "status.storage.";
constexpr std::string_view status_topic = "status.storage.topic";
constexpr std::string_view partitions = "status.storage.partitions";
constexpr std::string_view replication_factor = "status.storage.replication.factor";
constexpr std::string_view cleanup_policy = "status.storage.cleanup.policy";
constexpr std::string_view max_retries = "status.storage.retry.max.retries";
constexpr std::string_view initial_backoff_ms = "status.storage.retry.initial.backoff.ms";
constexpr std::string_view max_backoff_ms = "status.storage.retry.max.backoff.ms";
constexpr std::string_view backoff_multiplier = "status.storage.retry.backoff.multiplier";
constexpr std::string_view jitter_factor = "status.storage.retry.jitter.factor";
constexpr std::string_view shutdown_drain_timeout_ms = "status.storage.shutdown.drain.timeout.ms";
constexpr std::string_view startup_timeout_ms = "status.storage.startup.timeout.ms";
constexpr std::string_view trace_max_bytes = "status.storage.trace.max.bytes";
constexpr std::string_view message_timeout_ms = "producer.message.timeout.ms";
constexpr std::string_view topic_tracking_allow_reset = "topic.tracking.allow.reset";
constexpr std::string_view topic_tracking_enable = "topic.tracking.enable";
constexpr std::string_view producer_prefix = "producer.";
constexpr std::string_view consumer_prefix = "consumer.";
constexpr std::string_view admin_prefix = "admin.";
constexpr std::string_view security_protocol = "security.protocol";
}  // namespace keys

// Every status.storage.* key with a meaning of its own; any other status.storage.<x> is a topic
// setting.
constexpr std::array<std::string_view, 11> own_status_storage_keys{
    keys::status_topic,       keys::partitions,         keys::replication_factor,
    keys::max_retries,        keys::initial_backoff_ms, keys::max_backoff_ms,
    keys::backoff_multiplier, keys::jitter_factor,      keys::shutdown_drain_timeout_ms,
    keys::startup_timeout_ms, keys::trace_max_bytes,
};

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

// Connect's sentence, then the property to set: the sentence alone does not name it.
constexpr std::string_view missing_topic_message =
    "Must specify topic for connector status. Set status.storage.topic to the name of the status topic (the "
    "one every worker sharing these statuses uses, e.g. connect-status).";

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
    parse_cluster_identity();
    parse_status_topic();
    parse_retry_settings();
    const std::optional<int64_t> message_timeout = long_in_range(keys::message_timeout_ms, 1, max_message_timeout_ms);
    if (message_timeout) config_.message_timeout_ms = *message_timeout;
    const std::optional<int64_t> drain_timeout =
        long_in_range(keys::shutdown_drain_timeout_ms, 0, defaults::max_shutdown_drain_timeout_ms);
    if (drain_timeout) config_.shutdown_drain_timeout_ms = *drain_timeout;
    const std::optional<int64_t> startup_timeout =
        long_in_range(keys::startup_timeout_ms, 1, std::numeric_limits<int32_t>::max());
    if (startup_timeout) config_.startup_timeout_ms = *startup_timeout;
    const std::optional<int64_t> trace_budget = long_in_range(
        keys::trace_max_bytes, static_cast<int64_t>(min_trace_budget_bytes), std::numeric_limits<int32_t>::max());
    if (trace_budget) config_.trace_max_bytes = static_cast<int32_t>(*trace_budget);
    if (const auto allow_reset = boolean(keys::topic_tracking_allow_reset))
      config_.topic_tracking_allow_reset = *allow_reset;
    if (const auto enable = boolean(keys::topic_tracking_enable)) config_.topic_tracking_enable = *enable;
    sort_remaining_keys();
    // Java's security names (sasl.jaas.config, ssl.truststore.*) become the client library's, or fail here.
    translate_security_settings(config_, warnings_);
    warn_about_replaced_overrides();
    return std::move(config_);
  }

 private:
  // The client library's own upper bound of message.timeout.ms; beyond it the client would refuse it with
  // a message that does not name our property.
  static constexpr int64_t max_message_timeout_ms = std::numeric_limits<int32_t>::max();

  void warn(std::string message) {
    if (warnings_ != nullptr) warnings_->push_back(std::move(message));
  }

  /// The trimmed value of `key`, if it was given.
  std::optional<std::string_view> value_of(std::string_view key) const {
    const auto found = props_.find(std::string{key});
    if (found == props_.end()) return std::nullopt;
    return java_trim(found->second);
  }

  template <typename Integer>
  std::optional<Integer> integer_in_range(std::string_view key, Integer min, Integer max) {
    const std::optional<std::string_view> value = value_of(key);
    if (!value) return std::nullopt;
    const auto parsed = parse_integer<Integer>(key, *value);
    require_in_range(key, *value, parsed, min, max);
    return parsed;
  }

  std::optional<int64_t> long_in_range(std::string_view key, int64_t min, int64_t max) {
    return integer_in_range<int64_t>(key, min, max);
  }

  std::optional<double> double_in_range(std::string_view key, double min, double max) {
    const std::optional<std::string_view> value = value_of(key);
    if (!value) return std::nullopt;
    const double parsed = parse_double(key, *value);
    require_in_range(key, *value, parsed, min, max);
    return parsed;
  }

  /// ConfigDef.Type.BOOLEAN: "true" or "false" in any case, after trimming; anything else is refused.
  std::optional<bool> boolean(std::string_view key) {
    const std::optional<std::string_view> value = value_of(key);
    if (!value) return std::nullopt;
    const std::string lower = ascii_lowercase(*value);
    if (lower == "true") return true;
    if (lower == "false") return false;
    throw invalid(key, *value, "Expected value to be either true or false");
  }

  void parse_cluster_identity() {
    if (const auto servers = value_of(keys::bootstrap_servers)) {
      require_no_nul(keys::bootstrap_servers, *servers);
      config_.bootstrap_servers = normalize_server_list(*servers);
      if (config_.bootstrap_servers.empty()) {
        throw invalid(keys::bootstrap_servers, *servers,
                      "Must list at least one host:port, or be \"mock\" for the embedded mock cluster");
      }
    }
    if (const auto group_id = value_of(keys::group_id)) {
      // Java accepts a blank group.id, but then no Connect worker can join its group, and every
      // client id here would start with a bare "-".
      if (group_id->empty()) throw invalid(keys::group_id, *group_id, "Must not be blank");
      require_no_nul(keys::group_id, *group_id);
      config_.group_id = std::string{*group_id};
    }
    if (const auto client_id = value_of(keys::client_id)) {
      require_no_nul(keys::client_id, *client_id);
      config_.client_id = std::string{*client_id};  // blank means unset, as in clientIdBase
    }
  }

  void parse_status_topic() {
    const std::optional<std::string_view> topic = value_of(keys::status_topic);
    // KafkaStatusBackingStore.configure's own check and wording, for missing and blank alike.
    if (!topic || topic->empty()) {
      throw config_error::with_message(std::string{keys::status_topic}, std::string{topic.value_or("")},
                                       std::string{missing_topic_message});
    }
    require_legal_topic_name(keys::status_topic, *topic);
    config_.status_topic = std::string{*topic};

    // TopicCreationConfig's PARTITIONS_VALIDATOR and REPLICATION_FACTOR_VALIDATOR, with their wording.
    if (const auto value = value_of(keys::partitions)) {
      const auto partitions = parse_integer<int32_t>(keys::partitions, *value);
      if (partitions < 1 && partitions != -1) {
        throw invalid(keys::partitions, *value,
                      "Number of partitions must be positive, or -1 to use the broker's default");
      }
      config_.partitions = partitions;
    }
    if (const auto value = value_of(keys::replication_factor)) {
      const auto factor = parse_integer<int16_t>(keys::replication_factor, *value);
      if (factor < 1 && factor != -1) {
        throw invalid(keys::replication_factor, *value,
                      "Replication factor must be positive and not larger than the number of brokers in the Kafka "
                      "cluster, or -1 to use the broker's default");
      }
      config_.replication_factor = factor;
    }
  }

  void parse_retry_settings() {
    constexpr int64_t max_long = std::numeric_limits<int64_t>::max();
    retry_settings& retry = config_.retry;
    if (const auto value = integer_in_range<int32_t>(keys::max_retries, 0, std::numeric_limits<int32_t>::max())) {
      retry.max_retries = *value;
    }
    if (const auto value = long_in_range(keys::initial_backoff_ms, 0, max_long)) retry.initial_backoff_ms = *value;
    if (const auto value = long_in_range(keys::max_backoff_ms, 0, max_long)) retry.max_backoff_ms = *value;
    if (const auto value = double_in_range(keys::backoff_multiplier, 1.0, std::numeric_limits<double>::infinity())) {
      retry.backoff_multiplier = *value;
    }
    if (const auto value = double_in_range(keys::jitter_factor, 0.0, 1.0)) retry.jitter_factor = *value;
    // The KIP's cross-check. It names initial.backoff.ms, also when only max.backoff.ms was lowered,
    // because the rule reads naturally from that side.
    if (retry.initial_backoff_ms > retry.max_backoff_ms) {
      throw invalid(
          keys::initial_backoff_ms, std::to_string(retry.initial_backoff_ms),
          "Value must be <= " + std::string{keys::max_backoff_ms} + "=" + std::to_string(retry.max_backoff_ms));
    }
  }

  /// Everything that is not a scalar setting read above: pass-through maps, ignored and unknown keys.
  void sort_remaining_keys() {
    for (const auto& [key, raw_value] : props_) {
      const std::string_view name = key;
      const std::string_view value = java_trim(raw_value);
      if (name == keys::bootstrap_servers || name == keys::group_id || name == keys::client_id ||
          name == keys::message_timeout_ms || name == keys::topic_tracking_allow_reset ||
          name == keys::topic_tracking_enable || equals_any(name, own_status_storage_keys)) {
        continue;  // parsed above
      }
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
  settings.emplace(keys::bootstrap_servers, config.bootstrap_servers);
  settings.emplace(keys::group_id, config.group_id);
  settings.emplace(keys::client_id, config.client_id);
  settings.emplace(keys::status_topic, config.status_topic);
  settings.emplace(keys::partitions, std::to_string(config.partitions));
  settings.emplace(keys::replication_factor, std::to_string(config.replication_factor));
  settings.emplace(keys::max_retries, std::to_string(config.retry.max_retries));
  settings.emplace(keys::initial_backoff_ms, std::to_string(config.retry.initial_backoff_ms));
  settings.emplace(keys::max_backoff_ms, std::to_string(config.retry.max_backoff_ms));
  settings.emplace(keys::backoff_multiplier, format_double(config.retry.backoff_multiplier));
  settings.emplace(keys::jitter_factor, format_double(config.retry.jitter_factor));
  settings.emplace(keys::shutdown_drain_timeout_ms, std::to_string(config.shutdown_drain_timeout_ms));
  settings.emplace(keys::startup_timeout_ms, std::to_string(config.startup_timeout_ms));
  settings.emplace(keys::trace_max_bytes, std::to_string(config.trace_max_bytes));
  settings.emplace(keys::message_timeout_ms, std::to_string(config.message_timeout_ms));
  settings.emplace(keys::topic_tracking_allow_reset, config.topic_tracking_allow_reset ? "true" : "false");
  settings.emplace(keys::topic_tracking_enable, config.topic_tracking_enable ? "true" : "false");
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
