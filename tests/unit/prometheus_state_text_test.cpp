// The per-state series of GET /metrics (app/prometheus_text.hpp) and the predicates they share with
// GET /connectors?state= and `list --state` (app/connector_states.hpp); the history's per-connector
// counter and gauge; the samples both are made of, as /metrics and the metrics reporter show them.
#include "app/connector_states.hpp"
#include "app/prometheus_text.hpp"
#include "app/store/labelled_samples.hpp"
#include "app/store/metric_names.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace status_store;

namespace {

status_value value(status_state state) { return status_value{state, std::nullopt, "w1:8083", 3}; }

connector_view view(std::string name, std::optional<status_state> own, std::vector<status_state> tasks) {
  connector_view v;
  v.name = name;
  v.found = own.has_value();
  if (own) v.connector = connector_status{name, value(*own)};
  for (size_t i = 0; i < tasks.size(); ++i)
    v.tasks.push_back(task_status{name, static_cast<int32_t>(i), value(tasks[i])});
  return v;
}

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos || text.rfind(line + "\n", 0) == 0;
}

}  // namespace

TEST(ConnectorStates, OwnStateOrATasksAndDegradedIsRunningWithAFailedTask) {
  const auto degraded = view("a", status_state::running, {status_state::running, status_state::failed});
  EXPECT_TRUE(has_state(degraded, status_state::failed));
  EXPECT_TRUE(has_state(degraded, status_state::running));
  EXPECT_FALSE(has_state(degraded, status_state::paused));
  EXPECT_TRUE(is_degraded(degraded));
  EXPECT_FALSE(is_degraded(view("b", status_state::failed, {status_state::failed})));  // failed, not degraded
  EXPECT_FALSE(is_degraded(view("c", std::nullopt, {status_state::failed})));          // no own status
  EXPECT_TRUE(has_state(view("c", std::nullopt, {status_state::failed}), status_state::failed));
  EXPECT_EQ(parse_reported_state("fAiLeD"), status_state::failed);
  EXPECT_FALSE(parse_reported_state("DESTROYED"));  // a tombstone, never a state the view holds
  EXPECT_FALSE(parse_reported_state("SLEEPING"));
}

TEST(PrometheusStateText, ASeriesPerConnectorAndTaskWithItsStateAsALabel) {
  const auto text =
      prometheus_state_text({view("a", status_state::running, {status_state::running, status_state::failed}),
                             view("b", status_state::paused, {})});
  EXPECT_TRUE(has_line(text, "# TYPE status_connector_status gauge")) << text;
  EXPECT_TRUE(has_line(text, R"(status_connector_status{connector="a",state="running"} 1)")) << text;
  EXPECT_TRUE(has_line(text, R"(status_connector_status{connector="b",state="paused"} 1)")) << text;
  EXPECT_TRUE(has_line(text, R"(status_task_status{connector="a",task="0",state="running"} 1)")) << text;
  EXPECT_TRUE(has_line(text, R"(status_task_status{connector="a",task="1",state="failed"} 1)")) << text;
  EXPECT_TRUE(has_line(text, R"(status_connectors{state="running"} 1)")) << text;
  EXPECT_TRUE(has_line(text, R"(status_connectors{state="paused"} 1)")) << text;
  EXPECT_TRUE(has_line(text, R"(status_connectors{state="degraded"} 1)")) << text;
  EXPECT_TRUE(has_line(text, R"(status_tasks{state="failed"} 1)")) << text;
  EXPECT_TRUE(has_line(text, R"(status_tasks{state="running"} 1)")) << text;
}

TEST(PrometheusStateText, EveryStateIsCountedAlsoWhenNoneIsInIt) {
  const auto text = prometheus_state_text({});
  for (const char* state : {"unassigned", "running", "paused", "failed", "restarting", "stopped", "degraded"})
    EXPECT_TRUE(has_line(text, std::string{"status_connectors{state=\""} + state + "\"} 0")) << state << "\n" << text;
  for (const char* state : {"unassigned", "running", "paused", "failed", "restarting", "stopped"})
    EXPECT_TRUE(has_line(text, std::string{"status_tasks{state=\""} + state + "\"} 0")) << state << "\n" << text;
  EXPECT_EQ(text.find("status_tasks{state=\"degraded\"}"), std::string::npos);
  EXPECT_EQ(text.find("destroyed"), std::string::npos);
  EXPECT_EQ(text.find("status_connector_status{"), std::string::npos);
}

TEST(PrometheusStateText, TasksWithoutTheirConnectorsStatusAreSeriesButTheConnectorIsNot) {
  const auto text = prometheus_state_text({view("orphan", std::nullopt, {status_state::failed})});
  EXPECT_EQ(text.find("status_connector_status{connector=\"orphan\""), std::string::npos) << text;
  EXPECT_TRUE(has_line(text, R"(status_task_status{connector="orphan",task="0",state="failed"} 1)")) << text;
  EXPECT_TRUE(has_line(text, R"(status_connectors{state="degraded"} 0)")) << text;
}

TEST(PrometheusStateText, LabelValuesEscapeBackslashQuoteAndNewline) {
  EXPECT_EQ(prometheus_label_value("plain-name.1"), "plain-name.1");
  EXPECT_EQ(prometheus_label_value("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  const auto text = prometheus_state_text({view("x\"}\n{y\\", status_state::failed, {status_state::failed})});
  EXPECT_TRUE(has_line(text, R"(status_connector_status{connector="x\"}\n{y\\",state="failed"} 1)")) << text;
  EXPECT_TRUE(has_line(text, R"(status_task_status{connector="x\"}\n{y\\",task="0",state="failed"} 1)")) << text;
  // No raw newline inside a series: every line is a comment or a whole sample.
  for (size_t begin = 0, end; (end = text.find('\n', begin)) != std::string::npos; begin = end + 1) {
    const std::string line = text.substr(begin, end - begin);
    EXPECT_TRUE(line.rfind("# ", 0) == 0 || line.rfind("status_", 0) == 0) << line;
  }
}

TEST(PrometheusStateText, LabelValuesAreUtf8WhateverTheKeysBytes) {
  EXPECT_EQ(prometheus_label_value("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"),
            "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
  EXPECT_EQ(prometheus_label_value("a\xFF"
                                   "b\xC3"),
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD");
  EXPECT_EQ(prometheus_label_value("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
}

TEST(PrometheusHistoryText, AFailedCounterAndAFlappingGaugePerConnectorZerosIncluded) {
  const history_counts counts{{{"a", 3, 1}, {"quiet", 0, 0}}};
  const auto text = prometheus_history_text(counts);
  EXPECT_TRUE(has_line(text, "# TYPE status_connector_failed_transitions_total counter")) << text;
  EXPECT_TRUE(has_line(text, "# TYPE status_flapping_keys gauge")) << text;
  EXPECT_TRUE(has_line(text, R"(status_connector_failed_transitions_total{connector="a"} 3)")) << text;
  EXPECT_TRUE(has_line(text, R"(status_connector_failed_transitions_total{connector="quiet"} 0)")) << text;
  EXPECT_TRUE(has_line(text, R"(status_flapping_keys{connector="a"} 1)")) << text;
  EXPECT_TRUE(has_line(text, R"(status_flapping_keys{connector="quiet"} 0)")) << text;
  // Each family's series follow its own HELP and TYPE lines.
  EXPECT_LT(text.find("status_connector_failed_transitions_total{connector=\"quiet\"}"),
            text.find("# HELP status_flapping_keys"));
}

TEST(PrometheusHistoryText, NoConnectorNoSeriesButTheFamiliesAreDeclaredAndNamesEscaped) {
  const auto empty = prometheus_history_text({});
  EXPECT_EQ(empty.find("{"), std::string::npos) << empty;
  EXPECT_TRUE(has_line(empty, "# TYPE status_flapping_keys gauge")) << empty;
  const auto text = prometheus_history_text({{{"x\"\n\\", 1, 0}}});
  EXPECT_TRUE(has_line(text, R"(status_connector_failed_transitions_total{connector="x\"\n\\"} 1)")) << text;
}

TEST(HistorySamples, TheReportersSeriesAreTheFamiliesOfTheTableWithTheConnectorAsTheirLabel) {
  const auto samples = history_samples({{{"a", 2, 1}, {"b", 0, 0}}});
  ASSERT_EQ(samples.size(), 4u);
  EXPECT_EQ(samples[0].name, "status-connector-failed-transitions-total");
  EXPECT_EQ(samples[0].kind, "counter");
  ASSERT_EQ(samples[0].labels.size(), 1u);
  EXPECT_EQ(samples[0].labels[0].first, "connector");
  EXPECT_EQ(samples[0].labels[0].second, "a");
  EXPECT_EQ(samples[0].value, 2);
  EXPECT_EQ(samples[1].labels[0].second, "b");
  EXPECT_EQ(samples[2].name, "status-flapping-keys");
  EXPECT_EQ(samples[2].kind, "gauge");
  EXPECT_EQ(samples[2].value, 1);
  EXPECT_EQ(samples[3].value, 0);
}

TEST(StateSamples, TheReportersPerStateSeriesInTheFamiliesOrderWithEveryStateCounted) {
  const auto samples = state_samples({view("a", status_state::running, {status_state::running, status_state::failed}),
                                      view("orphan", std::nullopt, {status_state::paused})});
  // a's own series; three task series; 7 connector counts (6 states, degraded); 6 task counts
  ASSERT_EQ(samples.size(), 1u + 3u + 7u + 6u);
  EXPECT_EQ(samples[0].name, "status-connector-status");
  EXPECT_EQ(samples[0].kind, "gauge");
  using labels = std::vector<std::pair<std::string_view, std::string>>;
  EXPECT_EQ(samples[0].labels, (labels{{"connector", "a"}, {"state", "running"}}));
  EXPECT_EQ(samples[0].value, 1);
  EXPECT_EQ(samples[2].name, "status-task-status");
  EXPECT_EQ(samples[2].labels, (labels{{"connector", "a"}, {"task", "1"}, {"state", "failed"}}));
  EXPECT_EQ(samples[3].labels, (labels{{"connector", "orphan"}, {"task", "0"}, {"state", "paused"}}));
  std::map<std::string, double> connectors, tasks;
  for (size_t i = 4; i < samples.size(); ++i)
    (samples[i].name == "status-connectors" ? connectors : tasks)[samples[i].labels.at(0).second] = samples[i].value;
  EXPECT_EQ(connectors, (std::map<std::string, double>{{"degraded", 1},
                                                       {"failed", 0},
                                                       {"paused", 0},
                                                       {"restarting", 0},
                                                       {"running", 1},
                                                       {"stopped", 0},
                                                       {"unassigned", 0}}));
  EXPECT_EQ(tasks,
            (std::map<std::string, double>{
                {"failed", 1}, {"paused", 1}, {"restarting", 0}, {"running", 1}, {"stopped", 0}, {"unassigned", 0}}));
  EXPECT_EQ(samples[4].name, "status-connectors");  // the families in labelled_metrics' order
  EXPECT_EQ(samples.back().name, "status-tasks");
  // /metrics renders exactly these samples, one line each.
  const auto text =
      prometheus_state_text({view("a", status_state::running, {status_state::running, status_state::failed}),
                             view("orphan", std::nullopt, {status_state::paused})});
  EXPECT_TRUE(has_line(text, R"(status_task_status{connector="orphan",task="0",state="paused"} 1)")) << text;
  EXPECT_TRUE(has_line(text, R"(status_tasks{state="paused"} 1)")) << text;
}
