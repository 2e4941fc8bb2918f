#pragma once
// Status topic set-up at start, as Connect's KafkaStatusBackingStore does it: create the topic if it
// is missing — compacted, with status.storage.partitions, status.storage.replication.factor and the
// extra status.storage.<topic-config> settings — retrying while brokers are still starting; and
// refuse an existing topic whose cleanup.policy is not exactly "compact", because a delete policy
// would eventually lose statuses.
#include "config/client_settings.hpp"
#include "config/worker_config.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

namespace status_store {

enum class topic_setup_result { created, existed_compacted, existed_unverified };

/// No broker answered within the start-up timeout: the message names the bootstrap servers.
struct no_broker_reachable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Throws config_error (property status.storage.topic) for a non-compacted topic,
/// no_broker_reachable when no broker answers a metadata request within `timeout` (the topic is
/// created only when a broker says it is missing), and std::runtime_error when a missing topic
/// cannot be created within `timeout`.
topic_setup_result ensure_status_topic(const kafka_settings& admin_settings, const worker_config& config,
                                       std::chrono::milliseconds timeout);

/// Connect's wording for a topic that is not compacted.
std::string non_compacted_topic_message(const std::string& topic, const std::string& policy);

}  // namespace status_store
