// What the executable serves: Connect's REST shapes and the Prometheus text.
#include "actors/policy/latency_histogram.hpp"
#include "app/listener_metrics.hpp"
#include "app/prometheus_text.hpp"
#include "app/status_json.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

using namespace status_store;

namespace {
connector_view sample_view() {
  connector_view v;
  v.name = "src";
  v.found = true;
  v.connector = connector_status{"src", {status_state::running, std::nullopt, "w1:8083", 2}};
  v.tasks.push_back(task_status{"src", 0, {status_state::failed, "boom\n\tat x", "w1:8083", 2, "1.4.0"}});
  v.topics.push_back(topic_status{"orders", "src", 0, 1580000000000});
  return v;
}
}  // namespace

TEST(StatusJson, ConnectorStatusHasConnectsRestShape) {
  EXPECT_EQ(
      connector_status_json(sample_view()),
      R"({"name":"src","connector":{"state":"RUNNING","worker_id":"w1:8083","version":null},)"
      R"("tasks":[{"id":0,"state":"FAILED","worker_id":"w1:8083","version":"1.4.0","trace":"boom\n\tat x"}],"type":"unknown"})");
}

TEST(StatusJson, VersionIsLeftOutOnlyWhenUndefinedAndAnEmptyTraceIsLeftOut) {
  connector_view v;
  v.name = v.connector.connector = "c";
  v.found = true;
  v.connector.value = status_value{status_state::failed, "", "w", 1, "undefined"};
  EXPECT_EQ(connector_status_json(v),
            R"({"name":"c","connector":{"state":"FAILED","worker_id":"w"},"tasks":[],"type":"unknown"})");
  v.connector.value.version = "";
  EXPECT_EQ(connector_status_json(v),
            R"({"name":"c","connector":{"state":"FAILED","worker_id":"w","version":""},"tasks":[],"type":"unknown"})");
}

TEST(StatusJson, TaskStatusAndTheExpandedListHaveConnectsRestShape) {
  const auto v = sample_view();
  EXPECT_EQ(task_status_json(v.tasks[0]),
            R"({"id":0,"state":"FAILED","worker_id":"w1:8083","version":"1.4.0","trace":"boom\n\tat x"})");
  connector_view unknown;  // tasks without a connector status: Connect lists no such connector
  unknown.name = "orphan";
  unknown.tasks = v.tasks;
  EXPECT_EQ(
      connectors_with_status_json({v, unknown}),
      R"({"src":{"status":{"name":"src","connector":{"state":"RUNNING","worker_id":"w1:8083","version":null},)"
      R"("tasks":[{"id":0,"state":"FAILED","worker_id":"w1:8083","version":"1.4.0","trace":"boom\n\tat x"}],"type":"unknown"}}})");
  EXPECT_EQ(connectors_with_status_json({}), "{}");
}

TEST(StatusJson, TopicsAndConnectorListsHaveConnectsRestShape) {
  EXPECT_EQ(connector_topics_json(sample_view()), R"({"src":{"topics":["orders"]}})");
  connector_view empty;
  empty.name = "gone";
  EXPECT_EQ(connector_topics_json(empty), R"({"gone":{"topics":[]}})");
  EXPECT_EQ(connectors_json({"a", "b-c"}), R"(["a","b-c"])");
}

TEST(StatusJson, AnExpandWithNothingServedIsConnectsMapOfEmptyObjects) {
  EXPECT_EQ(connectors_without_expansions_json({"a", "b-c"}), R"({"a":{},"b-c":{}})");
  EXPECT_EQ(connectors_without_expansions_json({}), "{}");
}

TEST(StatusJson, OneLinePerStatusWithTheFieldsThatApply) {
  auto lines = status_lines_json(sample_view());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(
      lines[0],
      R"({"key":"status-connector-src","type":"connector","connector":"src","state":"RUNNING","trace":null,"worker_id":"w1:8083","generation":2,"version":null})");
  EXPECT_EQ(
      lines[1],
      R"({"key":"status-task-src-0","type":"task","connector":"src","task":0,"state":"FAILED","trace":"boom\n\tat x","worker_id":"w1:8083","generation":2,"version":"1.4.0"})");
  EXPECT_EQ(
      lines[2],
      R"({"key":"status-topic-orders:connector-src","type":"topic","connector":"src","task":0,"topic":"orders","discover_timestamp":1580000000000})");
}

TEST(PrometheusText, CountersGaugesHelpTypeAndBaseUnits) {
  metrics_snapshot m;
  m.counters.success = 7;
  m.counters.retry = 3;
  m.oldest_unacked_age_ms = 1500;
  m.view.replay_ms = -1;
  const std::string text = prometheus_text(m);
  EXPECT_NE(text.find("# HELP status_update_success_total Status updates acknowledged by Kafka\n"
                      "# TYPE status_update_success_total counter\n"
                      "status_update_success_total 7\n"),
            std::string::npos);
  EXPECT_NE(text.find("status_update_retry_total 3\n"), std::string::npos);
  EXPECT_NE(
      text.find(
          "# TYPE status_update_oldest_unacked_age_seconds gauge\nstatus_update_oldest_unacked_age_seconds 1.5\n"),
      std::string::npos);
  EXPECT_NE(text.find("status_replay_duration_seconds -1\n"), std::string::npos);  // still replaying
  // Latency gauges: microseconds inside, seconds in Prometheus, -1 before the first acknowledgement.
  EXPECT_NE(text.find("status_update_ack_latency_p99_seconds -1\n"), std::string::npos);
  m.counters.ack_latency_p50_us = 250000;
  m.counters.ack_latency_p99_us = 500000;
  m.counters.ack_latency_max_us = 1500000;
  const std::string acked = prometheus_text(m);
  EXPECT_NE(acked.find("status_update_ack_latency_p50_seconds 0.25\n"), std::string::npos);
  EXPECT_NE(acked.find("status_update_ack_latency_p99_seconds 0.5\n"), std::string::npos);
  EXPECT_NE(acked.find("status_update_ack_latency_max_seconds 1.5\n"), std::string::npos);
  // The hop histograms: cumulative buckets in seconds, +Inf, sum and count, after a TYPE histogram line.
  latency_histogram waits;
  for (const uint64_t micros : {5, 100, 101, 4000, 20'000'000}) waits.record(micros);
  m.hops.ingest_wait = waits.distribution();
  const std::string hops = prometheus_text(m);
  EXPECT_NE(hops.find("# TYPE status_update_ingest_wait_seconds histogram\n"
                      "status_update_ingest_wait_seconds_bucket{le=\"0.00001\"} 1\n"
                      "status_update_ingest_wait_seconds_bucket{le=\"0.000025\"} 1\n"),
            std::string::npos);
  EXPECT_NE(hops.find("status_update_ingest_wait_seconds_bucket{le=\"0.0001\"} 2\n"
                      "status_update_ingest_wait_seconds_bucket{le=\"0.00025\"} 3\n"),
            std::string::npos);
  EXPECT_NE(hops.find("status_update_ingest_wait_seconds_bucket{le=\"10\"} 4\n"
                      "status_update_ingest_wait_seconds_bucket{le=\"+Inf\"} 5\n"
                      "status_update_ingest_wait_seconds_sum 20.004206\n"
                      "status_update_ingest_wait_seconds_count 5\n"),
            std::string::npos);
  EXPECT_NE(hops.find("status_update_key_wait_seconds_bucket{le=\"+Inf\"} 0\n"
                      "status_update_key_wait_seconds_sum 0\n"),
            std::string::npos);
  EXPECT_NE(hops.find("status_update_ingest_wait_p99_seconds 20\n"), std::string::npos);  // max caps the bucket
  // Metric names (in TYPE and sample lines) use '_' only; HELP text may say anything.
  std::istringstream lines{hops};
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# HELP ", 0) == 0) continue;
    const std::string name =
        line.rfind("# TYPE ", 0) == 0 ? line.substr(7, line.find(' ', 7) - 7) : line.substr(0, line.find(' '));
    EXPECT_EQ(name.find('-'), std::string::npos) << line;
  }
}

TEST(PrometheusText, TheListenersConnectionsAndEventStreamsAsGaugesAndCounters) {
  const std::string text = prometheus_text(listener_samples(listener_counts{120, 256, 7, 11, 2, 32, 9, 4, 3}));
  EXPECT_NE(text.find("# HELP status_event_streams_open Event streams (GET /status-store/v1/events) open now\n"
                      "# TYPE status_event_streams_open gauge\n"
                      "status_event_streams_open 2\n"),
            std::string::npos);
  EXPECT_NE(text.find("# TYPE status_event_streams_max gauge\nstatus_event_streams_max 32\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE status_event_streams_opened_total counter\nstatus_event_streams_opened_total 9\n"),
            std::string::npos);
  EXPECT_NE(text.find("# TYPE status_event_streams_refused_total counter\nstatus_event_streams_refused_total 4\n"),
            std::string::npos);
  EXPECT_NE(text.find("# TYPE status_event_streams_dropped_total counter\nstatus_event_streams_dropped_total 3\n"),
            std::string::npos);
  EXPECT_NE(text.find("# TYPE status_http_connections_open gauge\nstatus_http_connections_open 120\n"),
            std::string::npos);
  EXPECT_NE(text.find("# TYPE status_http_connections_max gauge\nstatus_http_connections_max 256\n"),
            std::string::npos);
  EXPECT_NE(text.find("# TYPE status_http_health_lane_open gauge\nstatus_http_health_lane_open 7\n"),
            std::string::npos);
  EXPECT_NE(text.find("# TYPE status_http_connections_shed_total counter\nstatus_http_connections_shed_total 11\n"),
            std::string::npos);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 27);  // nine families, three lines each
}
