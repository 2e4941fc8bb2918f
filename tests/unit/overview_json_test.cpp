// The JSON the status page reads under /status-store/v1/ (app/overview_json.hpp): the overview's shape
// (a connector's tasks, each key's last change and flapping time or null, a trace's first line), and
// the metrics document (every metric by its name, whole numbers as integers, the event streams).
#include "app/overview_json.hpp"
#include "app/store/metric_names.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace status_store;

TEST(OverviewJson, ConnectorsWithTasksLastChangesAndFlapping) {
  view_overview o;
  connector_view v;
  v.name = "my-src";
  v.found = true;
  v.connector = connector_status{"my-src", status_value{status_state::running, std::nullopt, "w1:8083", 3}};
  v.tasks.push_back(task_status{"my-src", 0, status_value{status_state::failed, std::string{"boom\n\tat x"}, "w1", 3}});
  v.tasks.push_back(task_status{"my-src", 1, status_value{status_state::running, std::nullopt, "w2", 3}});
  o.connectors.push_back(v);
  o.changes = {{"status-connector-my-src", 100}, {"status-task-my-src-0", 200}};
  o.flapping = {flapping_key{"my-src", true, 0, 150}};
  EXPECT_EQ(overview_json(o, 3, 600000),
            R"({"connectors":[{"name":"my-src","state":"RUNNING","worker_id":"w1:8083","generation":3,"trace":null,)"
            R"("last_change_ms":100,"flapping_since_ms":null,"tasks":[)"
            R"({"id":0,"state":"FAILED","worker_id":"w1","generation":3,"trace":"boom","last_change_ms":200,)"
            R"("flapping_since_ms":150},)"
            R"({"id":1,"state":"RUNNING","worker_id":"w2","generation":3,"trace":null,"last_change_ms":null,)"
            R"("flapping_since_ms":null}]}],"flap":{"threshold":3,"window_ms":600000}})");
  EXPECT_EQ(overview_json({}, 3, 10), R"({"connectors":[],"flap":{"threshold":3,"window_ms":10}})");
}

TEST(OverviewJson, NamesThatAreNotUtf8StayValidJson) {
  view_overview o;
  connector_view v;
  v.name = "bad\xff<img src=x onerror=alert(1)>";
  v.found = true;
  o.connectors.push_back(v);
  const auto parsed = nlohmann::json::parse(overview_json(o, 3, 10));
  EXPECT_EQ(parsed["connectors"][0]["name"], "bad\xEF\xBF\xBD<img src=x onerror=alert(1)>");
}

TEST(OverviewJson, TheMetricsDocumentHasEveryMetricTheConnectionsAndTheEventStreams) {
  metrics_snapshot m;
  m.counters.success = 4;
  m.counters.retry = 2;
  m.counters.ack_latency_p50_us = 1500;  // 1.5 ms: not a whole number
  m.oldest_unacked_age_ms = 7;
  const auto j = nlohmann::json::parse(store_metrics_json(m, listener_counts{120, 256, 7, 11, 1, 32, 3, 4, 5}));
  EXPECT_EQ(j["metrics"].size(), metric_samples(m).size());
  EXPECT_EQ(j["metrics"]["status-update-success-total"], 4);
  EXPECT_TRUE(j["metrics"]["status-update-success-total"].is_number_integer());
  EXPECT_EQ(j["metrics"]["status-update-retry-total"], 2);
  EXPECT_EQ(j["metrics"]["status-update-failure-total"], 0);
  EXPECT_EQ(j["metrics"]["status-update-oldest-unacked-age-ms"], 7);
  EXPECT_DOUBLE_EQ(j["metrics"]["status-update-ack-latency-p50-ms"].get<double>(), 1.5);
  EXPECT_EQ(j["connections"], nlohmann::json::parse(R"({"open":120,"max":256,"health_lane_open":7,"shed_total":11})"));
  EXPECT_EQ(j["event_streams"],
            nlohmann::json::parse(R"({"open":1,"max":32,"opened_total":3,"refused_total":4,"dropped_total":5})"));
}
