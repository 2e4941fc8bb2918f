// The worker's settings, one row each (config/setting_def.hpp). The validators keep Kafka's and
// Connect's rules and wording; the defaults themselves are config/defaults.hpp's, through worker_config.
#include "config/worker_settings.hpp"

#include "config/ascii.hpp"
#include "config/config_error.hpp"
#include "config/kafka_names.hpp"
#include "config/kafka_value_parsing.hpp"
#include "config/rest_setting_defs.hpp"
#include "config/webhook_url.hpp"
#include "messages/trace_truncation.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <string>

namespace status_store {

namespace {

constexpr int64_t max_int = std::numeric_limits<int32_t>::max();
constexpr int64_t max_long = std::numeric_limits<int64_t>::max();

// Connect's sentence, then the property to set: the sentence alone does not name it.
constexpr std::string_view missing_topic_message =
    "Must specify topic for connector status. Set status.storage.topic to the name of the status topic (the "
    "one every worker sharing these statuses uses, e.g. connect-status).";

/// ConfigDef's INT or LONG with a Range validator, in Kafka's words.
template <typename Integer>
Integer integer_in(std::string_view key, std::string_view value, Integer min, Integer max) {
  const auto parsed = parse_integer<Integer>(key, value);
  require_in_range(key, value, parsed, min, max);
  return parsed;
}

double double_in(std::string_view key, std::string_view value, double min, double max) {
  const double parsed = parse_double(key, value);
  require_in_range(key, value, parsed, min, max);
  return parsed;
}

/// ConfigDef.Type.BOOLEAN: "true" or "false" in any case, after trimming; anything else is refused.
bool boolean_of(std::string_view key, std::string_view value) {
  const std::string lower = ascii_lowercase(value);
  if (lower == "true") return true;
  if (lower == "false") return false;
  throw invalid(key, value, "Expected value to be either true or false");
}

/// TopicCreationConfig's PARTITIONS_VALIDATOR and REPLICATION_FACTOR_VALIDATOR: positive or -1.
template <typename Integer>
Integer positive_or_minus_one(std::string_view key, std::string_view value, std::string rule) {
  const auto parsed = parse_integer<Integer>(key, value);
  if (parsed < 1 && parsed != -1) throw invalid(key, value, std::move(rule));
  return parsed;
}

std::string text(bool value) { return value ? "true" : "false"; }

/// The KIP's cross-check. It names initial.backoff.ms, also when only max.backoff.ms was lowered, because
/// the rule reads naturally from that side.
void check_backoff_order(const worker_config& c) {
  if (c.retry.initial_backoff_ms > c.retry.max_backoff_ms) {
    throw invalid("status.storage.retry.initial.backoff.ms", std::to_string(c.retry.initial_backoff_ms),
                  "Value must be <= status.storage.retry.max.backoff.ms=" + std::to_string(c.retry.max_backoff_ms));
  }
}

constexpr std::string_view kip_default = "the KIP's default";
constexpr std::string_view connect_default =
    "Connect's default (DistributedConfig), so a worker file means the same here";

using def = setting_def<worker_config>;
using shown = std::optional<std::string>;

// clang-format off
constexpr std::array<def, 25> table{{
  {.key = "bootstrap.servers", .type = setting_type::list,
   .valid_values = "non-empty; `mock` = embedded mock cluster", .documentation = "Kafka brokers",
   .default_reason = connect_default,
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     require_no_nul(key, value);
     c.bootstrap_servers = normalize_server_list(value);
     if (c.bootstrap_servers.empty())
       throw invalid(key, value, "Must list at least one host:port, or be \"mock\" for the embedded mock cluster");
   },
   .show = [](const worker_config& c) -> shown { return c.bootstrap_servers; }},
  {.key = "group.id", .type = setting_type::string, .valid_values = "non-blank",
   .documentation = "client id base: the status clients are `<group.id>-statuses` (like Connect)",
   .default_reason = "Connect's client id base fallback",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     // Java accepts a blank group.id, but then no Connect worker can join its group, and every
     // client id here would start with a bare "-".
     if (value.empty()) throw invalid(key, value, "Must not be blank");
     require_no_nul(key, value);
     c.group_id = std::string{value};
   },
   .show = [](const worker_config& c) -> shown { return c.group_id; }},
  {.key = "client.id", .type = setting_type::string, .valid_values = "",
   .documentation = "appended to the client id base, as in Connect", .default_reason = "unset, as in Connect",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     require_no_nul(key, value);
     c.client_id = std::string{value};  // blank means unset, as in clientIdBase
   },
   .show = [](const worker_config& c) -> shown { return c.client_id; }},
  {.key = "status.storage.topic", .type = setting_type::string, .valid_values = "a Kafka topic name",
   .documentation = "the status topic (missing or blank: Connect's \"Must specify topic for connector status.\" "
                    "and the property to set)",
   .default_reason = "none: every worker sharing these statuses must name the same topic", .required = true,
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     // KafkaStatusBackingStore.configure's own check and wording, for missing and blank alike.
     if (value.empty()) throw config_error::with_message(std::string{key}, "", std::string{missing_topic_message});
     require_legal_topic_name(key, value);
     c.status_topic = std::string{value};
   },
   .show = [](const worker_config& c) -> shown { return c.status_topic; }},
  {.key = "status.storage.partitions", .type = setting_type::int_, .valid_values = "positive or -1",
   .documentation = "partitions when the topic is created", .default_reason = connect_default,
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.partitions = positive_or_minus_one<int32_t>(
         key, value, "Number of partitions must be positive, or -1 to use the broker's default");
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.partitions); }},
  {.key = "status.storage.replication.factor", .type = setting_type::short_, .valid_values = "positive or -1",
   .documentation = "replication factor when the topic is created", .default_reason = connect_default,
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.replication_factor = positive_or_minus_one<int16_t>(
         key, value,
         "Replication factor must be positive and not larger than the number of brokers in the Kafka cluster, or -1 "
         "to use the broker's default");
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.replication_factor); }},
  {.key = "status.storage.retry.max.retries", .type = setting_type::int_, .valid_values = "[0, 2147483647]",
   .documentation = "retries after the first attempt (attempts = 1 + retries); 0 = no retry",
   .default_reason = "the KIP's default: six attempts, 9.3 s of backoff between them (300 + 600 + 1200 + 2400 + "
                     "4800 ms, each up to 25 % more with jitter)",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.retry.max_retries = integer_in<int32_t>(key, value, 0, static_cast<int32_t>(max_int));
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.retry.max_retries); }},
  {.key = "status.storage.retry.initial.backoff.ms", .type = setting_type::long_,
   .valid_values = "[0, 9223372036854775807], ≤ max", .documentation = "backoff before the first retry",
   .default_reason = kip_default,
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.retry.initial_backoff_ms = integer_in<int64_t>(key, value, 0, max_long);
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.retry.initial_backoff_ms); }},
  {.key = "status.storage.retry.max.backoff.ms", .type = setting_type::long_,
   .valid_values = "[0, 9223372036854775807]", .documentation = "cap of the exponential part",
   .default_reason = kip_default,
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.retry.max_backoff_ms = integer_in<int64_t>(key, value, 0, max_long);
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.retry.max_backoff_ms); }},
  {.key = "status.storage.retry.backoff.multiplier", .type = setting_type::double_,
   .valid_values = "[1.0, ∞), finite", .documentation = "growth per retry", .default_reason = kip_default,
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.retry.backoff_multiplier = double_in(key, value, 1.0, std::numeric_limits<double>::infinity());
   },
   .show = [](const worker_config& c) -> shown { return format_double(c.retry.backoff_multiplier); }},
  {.key = "status.storage.retry.jitter.factor", .type = setting_type::double_, .valid_values = "[0.0, 1.0]",
   .documentation = "random extra delay, as a fraction of the capped backoff", .default_reason = kip_default,
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.retry.jitter_factor = double_in(key, value, 0.0, 1.0);
   },
   .show = [](const worker_config& c) -> shown { return format_double(c.retry.jitter_factor); },
   .cross_check = check_backoff_order},
  {.key = "producer.message.timeout.ms", .type = setting_type::long_, .valid_values = "[1, 2147483647]",
   .documentation = "bound of **one** attempt (librdkafka's `message.timeout.ms`, whose own upper bound is "
                    "2147483647: beyond it librdkafka would refuse it without naming this property)",
   .default_reason = "long enough to ride out a leader election on a real cluster (`broker.session.timeout.ms` "
                     "defaults to 9 s) within one attempt, short enough that the default six attempts give up "
                     "within about 100 s of an outage, instead of Java's 120 s per attempt "
                     "(`delivery.timeout.ms`) times unbounded retries",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.message_timeout_ms = integer_in<int64_t>(key, value, 1, max_int);
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.message_timeout_ms); }},
  {.key = "status.storage.shutdown.drain.timeout.ms", .type = setting_type::long_, .valid_values = "[0, 2147483647]",
   .documentation = "how long `stop()` drains before counting what is left as failed. At most Integer.MAX_VALUE "
                    "ms (24.8 days), as Kafka bounds its ms settings and status-store its other timeouts: \"drain "
                    "until every update resolves\" still fits, and no conversion to nanoseconds can overflow (a "
                    "larger value once did, and a \"drain forever\" drained nothing); a value set in code is "
                    "clamped to the same range",
   .default_reason = "status-store's: a stopping worker waits 10 s at most, then what is left is counted failed "
                     "and logged by key",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.shutdown_drain_timeout_ms = integer_in<int64_t>(key, value, 0, defaults::max_shutdown_drain_timeout_ms);
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.shutdown_drain_timeout_ms); }},
  {.key = "status.storage.startup.timeout.ms", .type = setting_type::long_, .valid_values = "[1, 2147483647]",
   .documentation = "how long start-up may take to set up the topic and replay it to its end (retrying while "
                    "brokers start or a just-created topic has no leaders yet); then start fails with a clear error",
   .default_reason = "Connect retries for up to 15 minutes and blocks the worker meanwhile; a minute is enough for "
                     "brokers that are starting and for replaying millions of records, and a clear error beats a "
                     "silent hang",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.startup_timeout_ms = integer_in<int64_t>(key, value, 1, max_int);
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.startup_timeout_ms); }},
  {.key = "status.storage.trace.max.bytes", .type = setting_type::long_, .valid_values = "[1024, 2147483647]",
   .documentation = "longest trace written, in UTF-8 bytes before JSON escaping; a longer one is cut (see "
                    "[oversized traces](configuration.md#oversized-traces)); below 1 KiB the cut's marker would "
                    "crowd out the trace it explains",
   .default_reason = "Connect sends the whole trace, and a record above the broker's `max.message.bytes` (1 MB by "
                     "default) is refused as non-retriable, losing the FAILED status; 64 KiB holds any ordinary Java "
                     "trace whole, and grown sixfold by JSON escaping still fits in 1 MB",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.trace_max_bytes = static_cast<int32_t>(
         integer_in<int64_t>(key, value, static_cast<int64_t>(min_trace_budget_bytes), max_int));
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.trace_max_bytes); }},
  {.key = "status.history.max.transitions", .type = setting_type::int_, .valid_values = "[0, 2147483647]",
   .documentation = "transitions the status view keeps per connector and per task (`store::history`); 0 keeps "
                    "none, and then the history queries answer empty",
   .default_reason = "16 covers a restart loop's last few cycles (FAILED, RESTARTING, RUNNING, …) and a week of "
                     "ordinary changes",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.history_max_transitions = integer_in<int32_t>(key, value, 0, static_cast<int32_t>(max_int));
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.history_max_transitions); }},
  {.key = "status.history.max.total", .type = setting_type::long_, .valid_values = "[1, 2147483647]",
   .documentation = "transitions kept over all keys; beyond it the oldest go first, whichever key they belong to",
   .default_reason = "bounds the history's memory whatever the number of keys (a transition takes about 190 bytes of "
                     "heap, docs/benchmarks.md#history, plus its trace's first line, at most 512): 100000 hold 16 each of 6250 connectors and tasks",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.history_max_total = integer_in<int64_t>(key, value, 1, max_int);
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.history_max_total); }},
  {.key = "status.flap.threshold", .type = setting_type::int_, .valid_values = "[1, 2147483647]",
   .documentation = "unstable transitions (into FAILED, or RUNNING → RESTARTING) within `status.flap.window.ms` "
                    "that make a connector or task flapping (`store::flapping`); it stays flapping until stable "
                    "for the window",
   .default_reason = "one failure is an incident, two may be a retried one; the third within the window is a loop "
                     "that restarting has not fixed",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.flap_threshold = integer_in<int32_t>(key, value, 1, static_cast<int32_t>(max_int));
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.flap_threshold); }},
  {.key = "status.flap.window.ms", .type = setting_type::long_, .valid_values = "[1, 2147483647]",
   .documentation = "the window of `status.flap.threshold`, and how long a flapping key must be stable to stop "
                    "flapping; at most Integer.MAX_VALUE ms, as Kafka bounds its ms settings",
   .default_reason = "10 minutes: longer than an automatic restart's backoff cycle, so a restart loop is seen, and "
                     "short enough that a fixed task stops being reported soon",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.flap_window_ms = integer_in<int64_t>(key, value, 1, max_int);
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.flap_window_ms); }},
  {.key = "status.alert.webhook.url", .type = setting_type::string,
   .valid_values = "empty, or `http://` or `https://`, a host, an optional port and path; printable ASCII, no user "
                   "info, no fragment",
   .documentation = "where the status view POSTs a JSON alert when a connector or task enters FAILED, recovers, or "
                    "starts or stops flapping ([operations](operations.md#webhook-alerts)); empty: no alerts. Logs "
                    "name only its scheme, host and port",
   .default_reason = "off until an operator names a receiver",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     if (!value.empty()) parse_webhook_url(key, value);
     c.alert.webhook_url = std::string{value};
   },
   .show = [](const worker_config& c) -> shown { return c.alert.webhook_url; }},
  {.key = "status.alert.webhook.headers", .type = setting_type::list, .valid_values =
       "comma-separated `Name: value`; names are HTTP tokens other than `Host`, `Content-Type`, `Content-Length`, "
       "`Transfer-Encoding` and `Connection`; values without control characters",
   .documentation = "extra headers of every alert request, e.g. `Authorization: Bearer …`; secret: masked in "
                    "`check-config`, warnings and errors, never logged",
   .default_reason = "none: a receiver that wants a token says which", .secret = true,
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.alert.webhook_headers = parse_webhook_headers(key, value);
   },
   .show = [](const worker_config& c) -> shown {
     std::string out;
     for (const auto& [name, value] : c.alert.webhook_headers) out += (out.empty() ? "" : ", ") + name + ": " + value;
     return out;
   }},
  {.key = "status.alert.webhook.timeout.ms", .type = setting_type::long_, .valid_values = "[1, 2147483647]",
   .documentation = "bound of **one** alert request, from resolving the host to the answer's status line; a "
                    "request that runs out is retried like a 503",
   .default_reason = "a receiver answers a small POST within milliseconds; 10 s rides out a slow TLS handshake or a "
                     "busy proxy, and a hung one still costs an alert only 10 s per attempt",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.alert.webhook_timeout_ms = integer_in<int64_t>(key, value, 1, max_int);
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.alert.webhook_timeout_ms); }},
  {.key = "status.alert.queue.capacity", .type = setting_type::int_, .valid_values = "[1, 1000000]",
   .documentation = "alerts that may wait for the receiver while it is slow or down; beyond it the oldest waiting "
                    "alert is dropped, counted in `status-alert-dropped-total` and logged",
   .default_reason = "a whole cluster failing at once (250 connectors of 4 tasks) fits; at about 1 KB an alert, the "
                     "queue stays under 1 MB",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.alert.queue_capacity = integer_in<int32_t>(key, value, 1, 1'000'000);
   },
   .show = [](const worker_config& c) -> shown { return std::to_string(c.alert.queue_capacity); }},
  {.key = "topic.tracking.allow.reset", .type = setting_type::boolean, .valid_values = "`true` or `false`, any case",
   .documentation = "whether `status-store run` answers `PUT /connectors/{name}/topics/reset` with a 202 and a "
                    "tombstone per topic status of the connector; when false, Connect's `403 "
                    "{\"error_code\":403,\"message\":\"Topic tracking reset is disabled.\"}`",
   .default_reason = "Connect's own setting defaults to true: a status store refuses by default because the reset "
                     "deletes what workers recorded, and its other endpoints only read",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.topic_tracking_allow_reset = boolean_of(key, value);
   },
   .show = [](const worker_config& c) -> shown { return text(c.topic_tracking_allow_reset); }},
  {.key = "topic.tracking.enable", .type = setting_type::boolean, .valid_values = "`true` or `false`, any case",
   .documentation = "whether `status-store run` serves `GET /connectors/{name}/topics` and `PUT …/topics/reset` at "
                    "all; when false, both answer Connect's `403 {\"error_code\":403,\"message\":\"Topic tracking is "
                    "disabled.\"}` (also the reset when `topic.tracking.allow.reset=true`: Connect checks this "
                    "first). Only the REST side changes: the store still writes every topic status it is given "
                    "(`put(topic_status)`, `status-store put topic`), because in Connect it is the worker's tasks "
                    "that stop recording active topics, not its status store",
   .default_reason = "Connect's name and default",
   .apply = [](std::string_view key, std::string_view value, worker_config& c) {
     c.topic_tracking_enable = boolean_of(key, value);
   },
   .show = [](const worker_config& c) -> shown { return text(c.topic_tracking_enable); }},
}};
// clang-format on

}  // namespace

std::span<const setting_def<worker_config>> worker_settings() { return table; }

std::optional<bool> declared_secret(std::string_view key) {
  if (const auto* found = find_setting(worker_settings(), key)) return found->secret;
  if (const auto* found = find_setting(rest_setting_defs(), key)) return found->secret;
  return std::nullopt;
}

}  // namespace status_store
