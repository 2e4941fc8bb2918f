#pragma once
// The worker configuration of the status store: the C++ counterpart of what Kafka Connect's
// DistributedConfig defines for the status topic, plus the five status.storage.retry.* settings of
// the KIP, validated at start-up. All defaults live in config/defaults.hpp; each setting's key, rule,
// documentation and reason for its default in its row of config/worker_settings.cpp.
#include "config/alert_settings.hpp"
#include "config/defaults.hpp"
#include "config/properties.hpp"
#include "config/retry_settings.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace status_store {

struct worker_config {
  /// Kafka bootstrap servers; the value "mock" selects the embedded mock cluster.
  std::string bootstrap_servers = std::string{defaults::bootstrap_servers};
  std::string group_id = std::string{defaults::group_id};
  std::string client_id;  // optional "client.id", appended to the client id base like Connect
  std::string status_topic;
  int32_t partitions = defaults::partitions;                  // positive or -1 (broker default)
  int16_t replication_factor = defaults::replication_factor;  // positive or -1 (broker default)
  /// Extra status.storage.<topic-config> settings for topic creation (prefix stripped;
  /// cleanup.policy removed with a warning: compaction is always used).
  std::map<std::string, std::string> topic_settings;
  retry_settings retry;
  /// Per-attempt delivery bound: the status producer's message.timeout.ms
  /// (settable as producer.message.timeout.ms). Its row in worker_settings.cpp says why 15 s.
  int64_t message_timeout_ms = defaults::message_timeout_ms;
  /// How long stop() keeps draining in-flight and scheduled updates before counting them failed
  /// (status.storage.shutdown.drain.timeout.ms).
  int64_t shutdown_drain_timeout_ms = defaults::shutdown_drain_timeout_ms;
  /// How long start-up may take to set up the topic and replay it to its end
  /// (status.storage.startup.timeout.ms); start fails with a clear error after that.
  int64_t startup_timeout_ms = defaults::startup_timeout_ms;
  /// Longest trace written, in UTF-8 bytes before JSON escaping (status.storage.trace.max.bytes);
  /// a longer one is cut by truncate_trace (messages/trace_truncation.hpp).
  int32_t trace_max_bytes = defaults::trace_max_bytes;
  /// The status view's history: transitions kept per key (0: none) and in total
  /// (status.history.max.transitions, status.history.max.total).
  int32_t history_max_transitions = defaults::history_max_transitions;
  int64_t history_max_total = defaults::history_max_total;
  /// Flapping: this many unstable transitions within the window, until stable for the window
  /// (status.flap.threshold, status.flap.window.ms; actors/policy/flap_rule.hpp).
  int32_t flap_threshold = defaults::flap_threshold;
  int64_t flap_window_ms = defaults::flap_window_ms;
  /// Webhook alerts of the status view's transitions and flapping (status.alert.*); off without a URL.
  alert_settings alert;
  /// Whether `status-store run` answers PUT /connectors/{name}/topics/reset (Connect's
  /// topic.tracking.allow.reset; refused with Connect's 403 when false).
  bool topic_tracking_allow_reset = defaults::topic_tracking_allow_reset;
  /// Whether `status-store run` serves GET /connectors/{name}/topics and the reset at all (Connect's
  /// topic.tracking.enable; both refused with Connect's 403 when false). The store itself still writes
  /// the topic statuses it is given: not recording them is the embedding worker's part, as in Connect.
  bool topic_tracking_enable = defaults::topic_tracking_enable;
  /// Client pass-through settings, prefix stripped (producer.*, consumer.*, admin.*).
  std::map<std::string, std::string> producer_overrides;
  std::map<std::string, std::string> consumer_overrides;
  std::map<std::string, std::string> admin_overrides;
  /// security.protocol, sasl.*, ssl.*: given to every client.
  std::map<std::string, std::string> security_settings;

  bool uses_mock_cluster() const { return bootstrap_servers == "mock"; }
  /// shutdown_drain_timeout_ms within [0, defaults::max_shutdown_drain_timeout_ms], which parsing
  /// enforces and code that sets the field may not: in ns, and with any margin, it cannot overflow.
  std::chrono::milliseconds shutdown_drain_timeout() const {
    return std::chrono::milliseconds{
        std::clamp<int64_t>(shutdown_drain_timeout_ms, 0, defaults::max_shutdown_drain_timeout_ms)};
  }
  /// Connect's clientIdBase: "<group.id>-" or "<group.id>-<client.id>-".
  std::string client_id_base() const;
  /// The client.id of the status producer and consumer, e.g. "connect-cluster-statuses".
  std::string status_client_id() const { return client_id_base() + "statuses"; }
};

/// Parses and validates. Throws config_error naming the first offending property, its value and
/// the rule. Unknown keys are not errors: a warning per key is appended to `warnings` (if given),
/// as are other notes (e.g. an ignored status.storage.cleanup.policy, or a producer./consumer./
/// admin. override of a setting the store forces, see client_settings.hpp). Values are trimmed as
/// Kafka's ConfigDef trims them; error messages and warnings never show a secret value.
worker_config parse_worker_config(const properties& props, std::vector<std::string>* warnings = nullptr);

/// The effective configuration, every setting with its default filled in, secrets masked, sorted by
/// key: what `status-store check-config` prints.
std::vector<std::pair<std::string, std::string>> effective_config(const worker_config& config);

}  // namespace status_store
