// Shutdown's edges on the mock cluster: the largest drain timeout still drains (it once overflowed
// into a deadline in the past), a coalescer that cannot answer the drain has every update the facade
// saw pending counted failed (it once reported 0, so `run` exited 0), and puts after stop() are counted.
#include "actors/kafka/mock_cluster.hpp"
#include "app/prometheus_text.hpp"
#include "app/store/store.hpp"
#include "messages/status_updates.hpp"
#include "mock_store.hpp"

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <limits>
#include <thread>
#include <vector>

using namespace status_store;
using namespace std::chrono_literals;
using status_store::integration::mock_config;

namespace {

connector_status running(int i) {
  return connector_status{"conn-" + std::to_string(i), status_value{status_state::running, std::nullopt, "w", 1}};
}

double value_of(const metrics_snapshot& m, std::string_view name) {
  for (const auto& sample : metric_samples(m))
    if (sample.name == name) return sample.value;
  ADD_FAILURE() << "no metric " << name;
  return -1;
}

void expect_conservation(const store_counters& c) {
  EXPECT_EQ(c.accepted, c.success + c.failure + c.coalesced + c.dropped_stale + c.pending);
}

/// 10 updates whose first sends fail with retriable errors (the retries back off 50..500 ms), then
/// stop() at once with `config`'s drain timeout: every update must be written within the drain.
void expect_stop_drains_retries(const worker_config& config) {
  store s{config, store_options{.jitter_seed = 3}};
  s.embedded_mock_cluster()->push_produce_errors(
      std::vector<rd_kafka_resp_err_t>(8, RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS));
  for (int i = 0; i < 10; ++i) s.put(running(i));
  const auto started = std::chrono::steady_clock::now();
  const drain_report report = s.stop();
  EXPECT_EQ(report.failed, 0u) << "the drain ended before the retries did";
  EXPECT_LT(std::chrono::steady_clock::now() - started, 30s);
  const auto m = s.metrics();  // the final values
  EXPECT_EQ(m.counters.success, 10u);
  EXPECT_GT(m.counters.retry, 0u);
  EXPECT_EQ(m.counters.pending, 0u);
}

}  // namespace

TEST(ShutdownOnMockCluster, TheLargestDrainTimeoutDrainsUntilEveryUpdateIsWritten) {
  expect_stop_drains_retries(
      mock_config("it-shutdown-longest-drain", {{"status.storage.shutdown.drain.timeout.ms", "2147483647"}}));
}

TEST(ShutdownOnMockCluster, ADrainTimeoutSetInCodeBeyondTheMaximumStillDrains) {
  worker_config config = mock_config("it-shutdown-drain-in-code");
  config.shutdown_drain_timeout_ms = std::numeric_limits<int64_t>::max();  // not validated: an embedder's field
  expect_stop_drains_retries(config);
}

TEST(ShutdownOnMockCluster, ACoalescerThatDoesNotAnswerTheDrainHasEveryPendingUpdateCountedFailed) {
  caf::actor_system_config system_config;
  caf::actor_system system{system_config};
  store s{system, mock_config("it-shutdown-unanswered"), store_options{.jitter_seed = 5}};
  std::optional<metrics_report> final_report;
  s.set_metrics_reporter(
      [&](const metrics_report& r) {
        if (r.final) final_report = r;
      },
      1h);
  s.embedded_mock_cluster()->set_broker_down(-1);  // nothing is acknowledged: 20 updates stay pending
  for (int i = 0; i < 20; ++i) s.put(running(i));
  ASSERT_TRUE(integration::eventually([&] { return s.metrics().counters.pending == 20; }, 30s));

  // The coalescer dies (as a bug would kill it): it never answers the drain, nor takes from the ingest.
  {
    caf::scoped_actor self{system};
    self->monitor(s.actor());
    caf::anon_send_exit(s.actor(), caf::exit_reason::kill);
    self->receive([](caf::down_msg&) {}, caf::after(30s) >> [] { ADD_FAILURE() << "the coalescer did not die"; });
  }
  for (int i = 20; i < 25; ++i) s.put(running(i));  // wait in the ingest table, never taken

  const drain_report report = s.stop();
  EXPECT_EQ(report.failed, 25u) << "20 pending in the coalescer and 5 waiting in the ingest table";
  const auto m = s.metrics();
  EXPECT_EQ(m.counters.failure, 25u);
  EXPECT_EQ(m.counters.accepted, 25u);
  EXPECT_EQ(m.counters.pending, 0u);
  expect_conservation(m.counters);
  ASSERT_TRUE(final_report.has_value());
  for (const auto& sample : final_report->metrics) {
    if (sample.name == "status-update-failure-total") {
      EXPECT_EQ(sample.value, 25);
    }
  }
}

TEST(ShutdownOnMockCluster, PutsAfterStopAreCountedInTheirMetric) {
  store s{mock_config("it-shutdown-after-stop"), store_options{.jitter_seed = 9}};
  s.put(running(0));
  EXPECT_EQ(s.stop().failed, 0u);
  EXPECT_EQ(value_of(s.metrics(), "status-update-after-stop-total"), 0);
  s.put(running(1));
  s.put_safe(task_status{"conn-1", 0, status_value{status_state::running, std::nullopt, "w", 1}});
  s.put(topic_status{"orders", "conn-1", 0, 1});
  s.delete_topic("conn-1", "orders");
  s.put_all({make_update(running(2)), make_update(running(3)), make_update(running(2))});
  const auto m = s.metrics();  // after stop(): the final values, with the refusals counted since
  EXPECT_EQ(value_of(m, "status-update-after-stop-total"), 7);
  EXPECT_EQ(m.counters.success, 1u);
  expect_conservation(m.counters);  // refused updates were never accepted
  EXPECT_NE(prometheus_text(m).find("\nstatus_update_after_stop_total 7\n"), std::string::npos);
}
