#pragma once
// Kafka client configuration for the status clients, derived from the worker configuration. Order
// matters and is: common settings (bootstrap.servers, security), status-store defaults the user may
// override (e.g. reconnect.backoff.max.ms=1000), the user's prefixed overrides, and last the settings
// the store forces because its correctness depends on them (acks=all, retries=0, idempotence off,
// max.in.flight=1, partitioner=murmur2_random, client.id).
//
// Each key appears once, at the position of its last setting: applying a list in order with
// rd_kafka_conf_set gives the same result as applying every layer in turn, so a forced value always
// wins over an override, and a client-library alias set later (retries vs message.send.max.retries) still
// beats the one set earlier. Mapping a list into a map keeps the right values too.
#include "config/worker_config.hpp"

#include <string>
#include <utility>
#include <vector>

namespace status_store {

using kafka_settings = std::vector<std::pair<std::string, std::string>>;

kafka_settings producer_settings(const worker_config& config);
kafka_settings consumer_settings(const worker_config& config);
kafka_settings admin_settings(const worker_config& config);

/// Just the forced part of each list above (its last entries). parse_worker_config uses them to warn
/// about a user override that would be replaced.
kafka_settings forced_producer_settings(const worker_config& config);
kafka_settings forced_consumer_settings(const worker_config& config);
kafka_settings forced_admin_settings(const worker_config& config);

}  // namespace status_store
