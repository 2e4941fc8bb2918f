#pragma once
// librdkafka configuration for the status clients, derived from the worker configuration. Order
// matters and is: common settings (bootstrap.servers, security), status-store defaults the user may
// override (e.g. reconnect.backoff.max.ms=1000), the user's prefixed overrides, and last the settings
// the store forces because its correctness depends on them (acks=all, retries=0, idempotence off,
// max.in.flight=1, partitioner=murmur2_random, client.id).
#include "config/worker_config.hpp"

#include <string>
#include <utility>
#include <vector>

namespace status_store {

using kafka_settings = std::vector<std::pair<std::string, std::string>>;

kafka_settings producer_settings(const worker_config& config);
kafka_settings consumer_settings(const worker_config& config);
kafka_settings admin_settings(const worker_config& config);

}  // namespace status_store
