// The metrics reporter an embedding worker registers (the KIP's setMetrics): every metric the
// Prometheus endpoint shows, under the KIP's group, at the chosen interval, with the values of the
// store's snapshot at that instant, and once more at stop with the drained, final values.
#include "app/prometheus_text.hpp"
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
  ASSERT_TRUE(s.flush(30s));
  // Idle once the view has read the 10 records back (slow under the sanitizers); then several
  // reports of the same values.
  const auto give_up = std::chrono::steady_clock::now() + 30s;
  while (s.metrics().view.records_read < 10 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(20ms);
  ASSERT_EQ(s.metrics().view.records_read, 10u);
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
  EXPECT_EQ(value_of(last, "status-update-success-total"), 10);
  // The history's per-connector series: the same as /metrics serves, a counter and a gauge each.
  const auto counts = s.counts_by_connector();
  const auto expected_labelled = history_samples(counts);
  ASSERT_EQ(last.labelled.size(), 20u);
  ASSERT_EQ(expected_labelled.size(), 20u);
  const std::string history_text = prometheus_history_text(counts);
  for (size_t i = 0; i < expected_labelled.size(); ++i) {
    const auto& got_sample = last.labelled[i];
    EXPECT_EQ(got_sample.name, expected_labelled[i].name);
    EXPECT_EQ(got_sample.labels, expected_labelled[i].labels);
    EXPECT_EQ(got_sample.value, expected_labelled[i].value) << got_sample.name << " " << got_sample.labels[0].second;
    EXPECT_NE(
        history_text.find(prometheus_stem(got_sample.name) + "{connector=\"" + got_sample.labels[0].second + "\"}"),
        std::string::npos);
  }
  EXPECT_EQ(last.labelled[0].name, "status-connector-failed-transitions-total");
  EXPECT_EQ(last.labelled[0].labels[0].second, "conn-0");
  EXPECT_EQ(last.labelled[0].value, 1);

  s.put(connector_status{"late", status_value{status_state::failed, "boom", "w", 1}});
  s.stop();
  const auto after = got.all();
  ASSERT_GT(after.size(), periodic.size());
  const auto& final_report = after.back();
  EXPECT_TRUE(final_report.final);
  EXPECT_EQ(value_of(final_report, "status-update-success-total"), 11);  // the drain is included
  EXPECT_EQ(value_of(final_report, "status-update-pending"), 0);
  // The view still answers at the drain: the final report has the history's series too ("late" among
  // them once the view has read it back).
  EXPECT_GE(final_report.labelled.size(), 20u);
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(got.all().size(), after.size()) << "no report after stop";
}
