// Shutdown's edges on the mock cluster: the largest drain timeout still drains (it once overflowed
// into a deadline in the past).
#include "actors/kafka/mock_cluster.hpp"
#include "app/store/store.hpp"
#include "mock_store.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <limits>
#include <vector>

using namespace status_store;
using namespace std::chrono_literals;
using status_store::integration::mock_config;

namespace {

connector_status running(int i) {
  return connector_status{"conn-" + std::to_string(i), status_value{status_state::running, std::nullopt, "w", 1}};
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
