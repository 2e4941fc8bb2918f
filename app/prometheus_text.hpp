#pragma once
// The Prometheus text exposition format (version 0.0.4) of a metrics snapshot: the store's metric
// names with '-' turned into '_', a HELP and a TYPE line each, counters ending in _total, times in
// base units (seconds). And the per-state series of the status view, labelled as Strimzi's JMX rules
// label Connect's. Pure functions.
#include "app/store/metric_names.hpp"
#include "messages/protocol.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace status_store {

/// Every metric of the snapshot, then the write path's hop histograms (`_bucket`, `_sum`, `_count`).
std::string prometheus_text(const metrics_snapshot& snapshot);

/// The same for any table of unlabelled samples (also app/listener_metrics.hpp's).
std::string prometheus_text(const std::vector<metric_sample>& samples);

/// A label value as the text format wants it: backslash, double quote and newline escaped (a
/// connector name is anyone's string), and a byte that is not UTF-8 as U+FFFD (the format is UTF-8).
std::string prometheus_label_value(std::string_view text);

/// The per-state families of app/store/metric_names.hpp (state_samples) for these views: one
/// series per connector with a status and per task, and the counts by state, every state always
/// present (0 when none), `degraded` among the connectors'.
std::string prometheus_state_text(const std::vector<connector_view>& views);

/// The history's labelled families (history_samples, app/store/labelled_samples.hpp): each connector's FAILED entries as a counter,
/// then its flapping keys as a gauge, one series per connector of `counts`.
std::string prometheus_history_text(const history_counts& counts);

}  // namespace status_store
