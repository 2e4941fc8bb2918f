// The metrics reporter an embedding worker registers (the KIP's setMetrics): every metric the
// Prometheus endpoint shows, under the KIP's group, at the chosen interval, with the values of the
// store's snapshot at that instant, and once more at stop with the drained, final values.
#include "app/prometheus_text.hpp"
#include "app/store/labelled_samples.hpp"
#include "app/store/store.hpp"
#include "mock_store.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

using namespace status_store;
using namespace std::chrono_literals;

namespace {

struct collected {
  std::mutex mutex;
  std::vector<metrics_report> reports;
  void add(const metrics_report& r) {
    std::lock_guard lock{mutex};
    reports.push_back(r);
  }
  std::vector<metrics_report> all() {
    std::lock_guard lock{mutex};
    return reports;
  }
};

/// The Prometheus name without its unit: '-' becomes '_', and a "-ms" gauge is served in seconds.
std::string prometheus_stem(std::string_view name) {
  std::string stem{name.ends_with("-ms") ? name.substr(0, name.size() - 3) : name};
  for (auto& c : stem) c = c == '-' ? '_' : c;
  return stem;
}

double value_of(const metrics_report& r, std::string_view name) {
  for (const auto& m : r.metrics)
    if (m.name == name) return m.value;
  ADD_FAILURE() << "no metric " << name;
  return -2;
}

}  // namespace

TEST(MetricsReporterOnMockCluster, ReportsEveryMetricAtItsIntervalAndTheFinalValuesAtStop) {
  store s{integration::mock_config("it-metrics-reporter"), store_options{.jitter_seed = 1}};
  collected got;
  s.set_metrics_reporter([&](const metrics_report& r) { got.add(r); }, 50ms);
  for (int i = 0; i < 10; ++i)  // conn-0 FAILED: its history counter is 1
    s.put(connector_status{"conn-" + std::to_string(i),
                           status_value{i == 0 ? status_state::failed : status_state::running, std::nullopt, "w", 1}});
  s.put(task_status{"conn-1", 0, status_value{status_state::failed, "boom", "w", 1}});  // conn-1 is degraded
  ASSERT_TRUE(s.flush(30s));
  // Idle once the view has read the 10 records back (slow under the sanitizers); then several
  // reports of the same values.
  const auto give_up = std::chrono::steady_clock::now() + 30s;
  while (s.metrics().view.records_read < 11 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(20ms);
  ASSERT_EQ(s.metrics().view.records_read, 11u);
  const size_t before_idle = got.all().size();
  std::this_thread::sleep_for(400ms);

  const auto periodic = got.all();
  ASSERT_GE(periodic.size(), before_idle + 2) << "a report every 50 ms for 400 ms";
  const auto& last = periodic.back();
  EXPECT_FALSE(last.final);
  EXPECT_EQ(last.group, "status-backing-store-metrics");
  EXPECT_EQ(last.tags.at("topic"), "it-metrics-reporter");
  EXPECT_EQ(last.tags.at("client-id"), s.config().status_client_id());
  // Every metric the Prometheus endpoint shows, with the same values at the same (idle) instant.
  const auto snapshot = s.metrics();
  const auto expected = metric_samples(snapshot);
  ASSERT_EQ(last.metrics.size(), expected.size());
  const std::string prometheus = prometheus_text(snapshot);
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(last.metrics[i].name, expected[i].name);
    EXPECT_EQ(last.metrics[i].value, expected[i].value) << expected[i].name;
    EXPECT_NE(prometheus.find(prometheus_stem(expected[i].name)), std::string::npos)
        << expected[i].name << " is not served by /metrics";
  }
  EXPECT_EQ(value_of(last, "status-update-success-total"), 11);
  // The hop histograms: each counts the 11 acknowledged updates once, as /metrics serves them.
  ASSERT_EQ(last.histograms.size(), histogram_metrics.size());
  for (const auto& h : last.histograms) {
    EXPECT_EQ(h.count, 11u) << h.name;
    ASSERT_EQ(h.buckets.size(), latency_bucket_bounds_us.size() + 1);
    EXPECT_EQ(h.buckets.back().second, 11u) << h.name << ": +Inf holds every value";
    for (size_t b = 1; b < h.buckets.size(); ++b) EXPECT_LE(h.buckets[b - 1].second, h.buckets[b].second) << h.name;
    const std::string count_line = prometheus_stem(h.name) + "_count 11\n";
    EXPECT_NE(prometheus.find(count_line), std::string::npos) << count_line << "is not served by /metrics";
  }
  // The view's labelled series: the per-state ones, then the history's per connector, each the same
  // as /metrics serves (one line each there).
  const auto views = s.describe_all();
  const auto counts = s.counts_by_connector();
  auto expected_labelled = state_samples(views);
  const auto history = history_samples(counts);
  expected_labelled.insert(expected_labelled.end(), history.begin(), history.end());
  // 10 connectors and 1 task; 7 connector counts (6 states, degraded) and 6 task counts; 2 x 10 history
  const size_t labelled_series = 10 + 1 + 7 + 6 + 20;
  ASSERT_EQ(expected_labelled.size(), labelled_series);
  ASSERT_EQ(last.labelled.size(), labelled_series);
  const std::string served = prometheus_state_text(views) + prometheus_history_text(counts);
  for (size_t i = 0; i < expected_labelled.size(); ++i) {
    const auto& got_sample = last.labelled[i];
    EXPECT_EQ(got_sample.name, expected_labelled[i].name);
    EXPECT_EQ(got_sample.kind, expected_labelled[i].kind);
    EXPECT_EQ(got_sample.labels, expected_labelled[i].labels);
    EXPECT_EQ(got_sample.value, expected_labelled[i].value) << got_sample.name << " " << got_sample.labels[0].second;
    std::string line = prometheus_stem(got_sample.name) + "{";
    for (size_t l = 0; l < got_sample.labels.size(); ++l)
      line += (l ? "," : "") + std::string{got_sample.labels[l].first} + "=\"" + got_sample.labels[l].second + "\"";
    line += "} " + std::to_string(static_cast<uint64_t>(got_sample.value)) + "\n";
    EXPECT_NE(served.find(line), std::string::npos) << line << "is not served by /metrics";
  }
  const auto find = [&](std::string_view name, std::vector<std::pair<std::string_view, std::string>> labels) {
    for (const auto& sample : last.labelled)
      if (sample.name == name && sample.labels == labels) return sample.value;
    ADD_FAILURE() << "no labelled sample " << name;
    return -1.0;
  };
  EXPECT_EQ(find("status-connector-status", {{"connector", "conn-0"}, {"state", "failed"}}), 1);
  EXPECT_EQ(find("status-task-status", {{"connector", "conn-1"}, {"task", "0"}, {"state", "failed"}}), 1);
  EXPECT_EQ(find("status-connectors", {{"state", "running"}}), 9);
  EXPECT_EQ(find("status-connectors", {{"state", "degraded"}}), 1);
  EXPECT_EQ(find("status-tasks", {{"state", "failed"}}), 1);
  EXPECT_EQ(find("status-tasks", {{"state", "paused"}}), 0);
  EXPECT_EQ(find("status-connector-failed-transitions-total", {{"connector", "conn-0"}}), 1);
  EXPECT_EQ(find("status-connector-failed-transitions-total", {{"connector", "conn-1"}}), 1);  // its task

  s.put(connector_status{"late", status_value{status_state::failed, "boom", "w", 1}});
  s.stop();
  const auto after = got.all();
  ASSERT_GT(after.size(), periodic.size());
  const auto& final_report = after.back();
  EXPECT_TRUE(final_report.final);
  EXPECT_EQ(value_of(final_report, "status-update-success-total"), 12);  // the drain is included
  EXPECT_EQ(value_of(final_report, "status-update-pending"), 0);
  // The view still answers at the drain: the final report has its series too ("late" among them once
  // the view has read it back).
  EXPECT_GE(final_report.labelled.size(), labelled_series);
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(got.all().size(), after.size()) << "no report after stop";
}
