#include "actors/kafka/status_topic_admin.hpp"

#include "actors/kafka/credential_failure_watch.hpp"
#include "actors/kafka/librdkafka_client.hpp"
#include "config/config_error.hpp"
#include "config/logging.hpp"

#include <librdkafka/rdkafka.h>

#include <memory>
#include <optional>
#include <stdexcept>

namespace status_store {

namespace {

using clock_type = std::chrono::steady_clock;

struct handle_deleter {
  void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
};
using handle_ptr = std::unique_ptr<rd_kafka_t, handle_deleter>;
struct queue_deleter {
  void operator()(rd_kafka_queue_t* q) const { rd_kafka_queue_destroy(q); }
};
using queue_ptr = std::unique_ptr<rd_kafka_queue_t, queue_deleter>;
struct event_deleter {
  void operator()(rd_kafka_event_t* e) const { rd_kafka_event_destroy(e); }
};
using event_ptr = std::unique_ptr<rd_kafka_event_t, event_deleter>;

handle_ptr make_admin_client(const kafka_settings& settings, credential_failure_watch& credentials) {
  // The admin API works on a producer handle; it never produces.
  return handle_ptr{new_librdkafka_client(RD_KAFKA_PRODUCER, settings, "admin", "admin client",
                                          [&](rd_kafka_conf_t* conf) { credentials.install(conf); })};
}

/// Waits for the result event of an admin request.
event_ptr await_result(rd_kafka_queue_t* queue, rd_kafka_event_type_t type, int timeout_ms) {
  const auto deadline = clock_type::now() + std::chrono::milliseconds{timeout_ms};
  for (;;) {
    event_ptr ev{rd_kafka_queue_poll(queue, std::max(remaining_ms(deadline), 1))};
    if (!ev) return nullptr;
    if (rd_kafka_event_type(ev.get()) == type) return ev;
    if (remaining_ms(deadline) == 0) return nullptr;
  }
}

/// The topic's cleanup.policy, or nullopt if the broker does not tell (old broker, no ACL, mock).
std::optional<std::string> describe_cleanup_policy(rd_kafka_t* rk, const std::string& topic, int timeout_ms) {
  queue_ptr queue{rd_kafka_queue_new(rk)};
  rd_kafka_ConfigResource_t* resource = rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.c_str());
  rd_kafka_AdminOptions_t* options = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS);
  char errstr[256];
  rd_kafka_AdminOptions_set_request_timeout(options, timeout_ms, errstr, sizeof errstr);
  rd_kafka_DescribeConfigs(rk, &resource, 1, options, queue.get());
  rd_kafka_AdminOptions_destroy(options);
  rd_kafka_ConfigResource_destroy(resource);
  auto ev = await_result(queue.get(), RD_KAFKA_EVENT_DESCRIBECONFIGS_RESULT, timeout_ms + 1000);
  if (!ev || rd_kafka_event_error(ev.get())) return std::nullopt;
  size_t count = 0;
  const auto** resources =
      rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(ev.get()), &count);
  for (size_t i = 0; i < count; ++i) {
    if (rd_kafka_ConfigResource_error(resources[i])) return std::nullopt;
    size_t entries = 0;
    const auto** configs = rd_kafka_ConfigResource_configs(resources[i], &entries);
    for (size_t j = 0; j < entries; ++j)
      if (std::string_view{rd_kafka_ConfigEntry_name(configs[j])} == "cleanup.policy") {
        const char* value = rd_kafka_ConfigEntry_value(configs[j]);
        return std::string{value ? value : ""};
      }
  }
  return std::nullopt;
}

/// One CreateTopics attempt: NO_ERROR, TOPIC_ALREADY_EXISTS, or the error to retry or report.
std::pair<rd_kafka_resp_err_t, std::string> create_topic(rd_kafka_t* rk, const worker_config& config, int timeout_ms) {
  char errstr[512];
  rd_kafka_NewTopic_t* topic = rd_kafka_NewTopic_new(config.status_topic.c_str(), config.partitions,
                                                     config.replication_factor, errstr, sizeof errstr);
  if (!topic) return {RD_KAFKA_RESP_ERR__INVALID_ARG, errstr};
  // The user's settings first, then compaction, so cleanup.policy can never be overridden.
  for (const auto& [key, value] : config.topic_settings)
    rd_kafka_NewTopic_set_config(topic, key.c_str(), value.c_str());
  rd_kafka_NewTopic_set_config(topic, "cleanup.policy", "compact");
  queue_ptr queue{rd_kafka_queue_new(rk)};
  rd_kafka_AdminOptions_t* options = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_CREATETOPICS);
  rd_kafka_AdminOptions_set_operation_timeout(options, timeout_ms, errstr, sizeof errstr);
  rd_kafka_AdminOptions_set_request_timeout(options, timeout_ms, errstr, sizeof errstr);
  rd_kafka_CreateTopics(rk, &topic, 1, options, queue.get());
  rd_kafka_AdminOptions_destroy(options);
  rd_kafka_NewTopic_destroy(topic);
  auto ev = await_result(queue.get(), RD_KAFKA_EVENT_CREATETOPICS_RESULT, timeout_ms + 1000);
  if (!ev) return {RD_KAFKA_RESP_ERR__TIMED_OUT, "no answer to CreateTopics"};
  if (auto err = rd_kafka_event_error(ev.get())) return {err, rd_kafka_event_error_string(ev.get())};
  size_t count = 0;
  const auto** results = rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev.get()), &count);
  if (count != 1) return {RD_KAFKA_RESP_ERR__FAIL, "unexpected CreateTopics answer"};
  const char* message = rd_kafka_topic_result_error_string(results[0]);
  return {rd_kafka_topic_result_error(results[0]), message ? message : ""};
}

enum class topic_presence { present, absent, unknown };

/// What a Metadata request says about the topic; unknown when no broker answered it (all down,
/// unreachable, or not in time) — then creating the topic cannot succeed either.
topic_presence probe_topic(rd_kafka_t* rk, const std::string& topic, int timeout_ms) {
  const rd_kafka_metadata_t* md = nullptr;
  rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk, topic.c_str(), nullptr);
  auto err = rd_kafka_metadata(rk, 0, rkt, &md, timeout_ms);
  rd_kafka_topic_destroy(rkt);
  auto presence = topic_presence::unknown;
  if (!err)
    presence = md->topic_cnt == 1 && !md->topics[0].err && md->topics[0].partition_cnt > 0 ? topic_presence::present
                                                                                           : topic_presence::absent;
  if (md) rd_kafka_metadata_destroy(md);
  return presence;
}

// Worth another CreateTopics: brokers starting (too few for the replication factor), a controller
// moving, or no answer yet (KAFKA-13504: Connect retries InvalidReplicationFactor for this reason).
bool retriable_creation_error(rd_kafka_resp_err_t err) {
  switch (err) {
    case RD_KAFKA_RESP_ERR_INVALID_REPLICATION_FACTOR:
    case RD_KAFKA_RESP_ERR_NOT_CONTROLLER:
    case RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT:
    case RD_KAFKA_RESP_ERR_BROKER_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR__TIMED_OUT:
    case RD_KAFKA_RESP_ERR__TRANSPORT:
    case RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN:
      return true;
    default:
      return false;
  }
}

/// Throws if the broker refused the admin client's credentials or TLS set-up: then no retry can
/// succeed, and waiting out status.storage.startup.timeout.ms would only hide the cause.
void fail_on_credential_failure(rd_kafka_t* rk, credential_failure_watch& credentials, const std::string& topic) {
  rd_kafka_poll(rk, 0);  // serves the error callback
  if (const auto failure = credentials.failure()) {
    throw std::runtime_error("cannot set up status topic '" + topic + "': authentication with the broker failed (" +
                             rd_kafka_err2name(failure->error) + "): " + failure->reason);
  }
}

/// The backoff between start-up attempts, spent serving the client's callbacks (errors, logs) rather
/// than asleep, so a credential failure reported meanwhile is seen by the next check.
void back_off(rd_kafka_t* rk, std::chrono::milliseconds pause) {
  const auto until = clock_type::now() + pause;
  while (const int left = remaining_ms(until)) rd_kafka_poll(rk, left);
}

}  // namespace

std::string non_compacted_topic_message(const std::string& topic, const std::string& policy) {
  return "Topic '" + topic +
         "' supplied via the 'status.storage.topic' property is required to have 'cleanup.policy=compact' to "
         "guarantee consistency and durability of connector and task statuses, but found the topic currently has "
         "'cleanup.policy=" +
         policy +
         "'. Continuing would likely result in eventually losing connector and task statuses and problems "
         "restarting this Connect cluster in the future. Change the 'status.storage.topic' property in the Connect "
         "worker configurations to use a topic with 'cleanup.policy=compact'.";
}

topic_setup_result ensure_status_topic(const kafka_settings& admin_settings, const worker_config& config,
                                       std::chrono::milliseconds timeout) {
  auto log = component_logger("topic-admin");
  const auto deadline = clock_type::now() + timeout;
  credential_failure_watch credentials{"admin"};
  auto rk = make_admin_client(admin_settings, credentials);
  const std::string& topic = config.status_topic;
  auto backoff = std::chrono::milliseconds{100};
  // Ask first, and only create a topic a broker says is missing: with no broker answering there is
  // nothing to create it on, and an existing topic must not depend on the controller being up.
  auto presence = probe_topic(rk.get(), topic, std::max(std::min(remaining_ms(deadline), 5000), 1));
  while (presence == topic_presence::unknown) {
    fail_on_credential_failure(rk.get(), credentials, topic);
    if (remaining_ms(deadline) == 0)
      throw no_broker_reachable("no broker reachable at " + config.bootstrap_servers + " within " +
                                std::to_string(timeout.count()) + " ms: status topic '" + topic +
                                "' could not be looked up");
    log->warn("no broker answered a metadata request for status topic '{}' yet; retrying", topic);
    back_off(rk.get(), std::min(backoff, std::chrono::milliseconds{remaining_ms(deadline)}));
    backoff = std::min(backoff * 2, std::chrono::milliseconds{2000});
    presence = probe_topic(rk.get(), topic, std::max(std::min(remaining_ms(deadline), 5000), 1));
  }
  backoff = std::chrono::milliseconds{100};
  bool existed = presence == topic_presence::present;
  if (!existed) fail_on_credential_failure(rk.get(), credentials, topic);
  while (!existed) {
    auto [err, message] = create_topic(rk.get(), config, std::max(std::min(remaining_ms(deadline), 30000), 1));
    if (err) fail_on_credential_failure(rk.get(), credentials, topic);
    if (!err) {
      log->info("created status topic '{}': compacted, {} partition(s), replication factor {}", topic,
                config.partitions, config.replication_factor);
      return topic_setup_result::created;
    }
    if (err == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
      existed = true;  // another worker created it meanwhile
      break;
    }
    if (!retriable_creation_error(err) || remaining_ms(deadline) == 0)
      throw std::runtime_error("cannot create status topic '" + topic + "': " + rd_kafka_err2name(err) + ": " +
                               message);
    log->warn("creating status topic '{}' failed ({}: {}); retrying in {} ms", topic, rd_kafka_err2name(err), message,
              backoff.count());
    back_off(rk.get(), backoff);  // start-up, on the caller's thread: no actor is blocked
    backoff = std::min(backoff * 2, std::chrono::milliseconds{2000});
  }
  // A broker answers DescribeConfigs in milliseconds; one that does not support it (the mock) never
  // answers, so the wait is short.
  auto policy = describe_cleanup_policy(rk.get(), topic, std::max(std::min(remaining_ms(deadline), 2000), 1));
  if (!policy) {
    log->info(
        "cannot read the cleanup.policy of status topic '{}' (old broker, missing ACL or mock cluster); "
        "continuing without the check",
        topic);
    return topic_setup_result::existed_unverified;
  }
  if (*policy != "compact")
    throw config_error::with_message("status.storage.topic", topic, non_compacted_topic_message(topic, *policy));
  return topic_setup_result::existed_compacted;
}

}  // namespace status_store
