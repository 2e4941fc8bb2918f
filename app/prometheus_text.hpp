#pragma once
// The Prometheus text exposition format (version 0.0.4) of a metrics snapshot: the store's metric
// names with '-' turned into '_', a HELP and a TYPE line each, counters ending in _total, times in
// base units (seconds). Pure function.
#include "messages/protocol.hpp"

#include <string>

namespace status_store {

std::string prometheus_text(const metrics_snapshot& snapshot);

}  // namespace status_store
