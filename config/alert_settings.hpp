#pragma once
// status.alert.*: where the status view's alerts go (a webhook, docs/operations.md#webhook-alerts) and
// how many may wait for it. Parsed and validated by config/worker_config.hpp, each setting's rule and
// reasons in its row of config/worker_settings.cpp; the URL's parts in config/webhook_url.hpp.
#include "config/defaults.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace status_store {

struct alert_settings {
  /// status.alert.webhook.url: http:// or https://; empty: no alerts.
  std::string webhook_url;
  /// status.alert.webhook.headers: extra request headers (name, value), e.g. a bearer token. The values
  /// are secrets: masked wherever the configuration is shown, never logged.
  std::vector<std::pair<std::string, std::string>> webhook_headers;
  /// status.alert.webhook.timeout.ms: the bound of one POST, from resolving the host to the answer's head.
  int64_t webhook_timeout_ms = defaults::alert_webhook_timeout_ms;
  /// status.alert.queue.capacity: alerts that may wait for the receiver; beyond it the oldest is dropped.
  int32_t queue_capacity = defaults::alert_queue_capacity;

  bool enabled() const { return !webhook_url.empty(); }
};

}  // namespace status_store
