#pragma once
// The labelled families of metric_names.hpp as samples: the per-state series of the status view's
// current statuses and the history's per connector. One definition for GET /metrics
// (app/prometheus_text.cpp renders these samples) and the embedders' metrics reporter (store_metrics.cpp),
// so the two cannot disagree. Pure functions; not installed (embedders get the samples in a metrics_report).
#include "app/connector_states.hpp"
#include "app/store/metric_names.hpp"
#include "config/ascii.hpp"
#include "messages/history.hpp"
#include "messages/payloads.hpp"

#include <map>
#include <string>
#include <vector>

namespace status_store {

/// A state as a label value: lower case, as Connect's JMX attribute holds it and Strimzi's rules give it.
inline std::string state_label(status_state state) { return ascii_lowercase(to_string(state)); }

/// The four per-state families for `views`: 1 for each connector with a status (in the views' order),
/// 1 for each task (tasks without their connector's status included), then the connectors and the
/// tasks counted by state, every reported state present (0 when none, so a rule sees 0, not absent),
/// `degraded` among the connectors' (also counted as running), in the states' alphabetical order.
inline std::vector<labelled_sample> state_samples(const std::vector<connector_view>& views) {
  std::map<std::string, uint64_t> connectors, tasks;
  for (const auto state : reported_states) connectors[state_label(state)] = tasks[state_label(state)] = 0;
  connectors["degraded"] = 0;
  std::vector<labelled_sample> samples;
  const auto add = [&samples](const labelled_metric& m, std::vector<std::pair<std::string_view, std::string>> labels,
                              double value) {
    samples.push_back({m.name, m.kind, m.help, std::move(labels), value});
  };
  for (const auto& v : views) {
    if (!v.found) continue;
    const std::string state = state_label(v.connector.value.state);
    ++connectors[state];
    if (is_degraded(v)) ++connectors["degraded"];
    add(state_metric_connector, {{"connector", v.name}, {"state", state}}, 1);
  }
  for (const auto& v : views)
    for (const auto& t : v.tasks) {
      const std::string state = state_label(t.value.state);
      ++tasks[state];
      add(state_metric_task, {{"connector", t.connector}, {"task", std::to_string(t.task)}, {"state", state}}, 1);
    }
  for (const auto& [state, n] : connectors) add(state_metric_connectors, {{"state", state}}, static_cast<double>(n));
  for (const auto& [state, n] : tasks) add(state_metric_tasks, {{"state", state}}, static_cast<double>(n));
  return samples;
}

/// The history's families for `counts`: the FAILED counter of every connector, then the flapping
/// gauge of every connector (0 included, so a series exists before it first changes).
inline std::vector<labelled_sample> history_samples(const history_counts& counts) {
  std::vector<labelled_sample> samples;
  samples.reserve(2 * counts.connectors.size());
  for (const labelled_metric* m : {&history_metric_failed, &history_metric_flapping})
    for (const auto& c : counts.connectors)
      samples.push_back({m->name,
                         m->kind,
                         m->help,
                         {{"connector", c.connector}},
                         static_cast<double>(m == &history_metric_failed ? c.failed_transitions : c.flapping_keys)});
  return samples;
}

}  // namespace status_store
