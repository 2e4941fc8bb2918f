#pragma once
// Metrics aggregation: keeps the latest counters the coalescer published and answers snapshots, so
// readers (facade, HTTP, CLI) never touch the hot path's state. Metric names, as operators see them,
// are in metric_names.hpp.
#include "messages/protocol.hpp"

namespace status_store {

metrics_actor spawn_metrics(caf::actor_system& system);

}  // namespace status_store
