#pragma once
// The JSON bodies the status page reads under /status-store/v1/ (docs/http-service.md#the-status-page),
// as pure functions:
//
// GET /status-store/v1/overview, every connector with a status, by name:
//   {"connectors":[{"name":"my-src","state":"RUNNING","worker_id":"w1:8083","generation":3,
//     "trace":null,"last_change_ms":1795979753805,"flapping_since_ms":null,
//     "tasks":[{"id":0,"state":"FAILED","worker_id":"w1:8083","generation":3,"trace":"boom",
//       "last_change_ms":1795979753805,"flapping_since_ms":1795979753805}]}],
//    "flap":{"threshold":3,"window_ms":600000}}
// "trace" is the trace's first line (null without one; the whole trace is Connect's task status),
// "last_change_ms" the newest transition the history keeps (null when it keeps none), and
// "flapping_since_ms" null unless the key flaps now.
//
// GET /status-store/v1/metrics: {"metrics":{"status-update-success-total":4,...},"event_streams":
//   {"open":1,"max":32,"opened_total":3,"refused_total":0,"dropped_total":0}}, every metric of
// app/store/metric_names.hpp by its name, whole numbers as integers.
#include "app/rest/http_listener.hpp"
#include "messages/protocol.hpp"

#include <cstdint>
#include <string>

namespace status_store {

std::string overview_json(const view_overview& overview, int32_t flap_threshold, int64_t flap_window_ms);

std::string store_metrics_json(const metrics_snapshot& snapshot, const listener_counts& listener);

}  // namespace status_store
