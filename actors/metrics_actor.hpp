#pragma once
// Metrics aggregation: combines what the write side (coalescer) and the read side (status view)
// publish, derives the gauges (put-to-ack latency quantiles, oldest unacknowledged age) and answers
// snapshots, so readers (facade, CLI, reporter) never touch either actor's state. Metric names, as
// operators see them, are in app/store/metric_names.hpp.
#include "messages/protocol.hpp"

namespace status_store {

metrics_actor spawn_metrics(caf::actor_system& system);

}  // namespace status_store
