#pragma once
// Metrics aggregation: combines the counters the write side (coalescer) and the read side (status
// view) publish and answers snapshots, so readers
// (facade, CLI) never touch either actor's state. Metric names, as operators see them, are in
// app/store/metric_names.hpp.
#include "messages/protocol.hpp"

namespace status_store {

metrics_actor spawn_metrics(caf::actor_system& system);

}  // namespace status_store
