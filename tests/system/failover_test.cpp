// status-store on a 3-node cluster (replication factor 3, min.insync.replicas=2): the leader of a
// status partition is killed with SIGKILL under load, and no key loses its latest status.
#include "kafka_cluster.hpp"
#include "workload.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace status_store;
using namespace status_store::system_test;
using namespace std::chrono_literals;

namespace {

struct LeaderFailover : three_node_test {};

}  // namespace

TEST_F(LeaderFailover, KillingTheLeaderOfAStatusPartitionUnderLoadLosesNoLatestStatus) {
  const auto topic = unique_topic("failover");
  const auto config = this->config(topic, failover_settings());
  workload load{"failover", 300};
  auto store_ptr = open_store(config, store_options{.jitter_seed = 5});
  store& s = *store_ptr;

  const auto partitions = describe_partitions(bootstrap(), topic);
  ASSERT_EQ(partitions.size(), 3u);
  for (const auto& p : partitions) EXPECT_EQ(p.replicas.size(), 3u) << "partition " << p.id;
  const auto configs = describe_topic_config(bootstrap(), topic);
  EXPECT_EQ(configs.at("cleanup.policy"), "compact");
  EXPECT_EQ(configs.at("min.insync.replicas"), "2");
  const int victim = partitions[0].leader;
  ASSERT_GE(victim, 1);
  ASSERT_LE(victim, 3);

  std::atomic<bool> writing{true};
  std::atomic<int> written{0};
  std::thread writer{[&] {
    for (int i = 0; writing; ++i) {
      load.put_round_robin(s, i);
      written = i + 1;
      if (i % 10 == 9) std::this_thread::sleep_for(10ms);
    }
  }};
  std::this_thread::sleep_for(2s);
  const bool killed = kafka_local("kill " + std::to_string(victim));
  // Leadership must move away from the dead node while updates keep coming.
  bool moved = eventually(
      [&] {
        try {
          const auto now = describe_partitions(bootstrap(), topic);
          return now[0].leader >= 1 && now[0].leader != victim;
        } catch (const std::exception&) {
          return false;
        }
      },
      30s);
  std::this_thread::sleep_for(3s);
  const bool restarted = kafka_local("start " + std::to_string(victim));  // no re-format: rejoins with its data
  std::this_thread::sleep_for(2s);
  writing = false;
  writer.join();
  ASSERT_TRUE(killed);
  EXPECT_TRUE(moved) << "the leader of partition 0 did not move away from the killed node " << victim;
  ASSERT_TRUE(restarted);

  ASSERT_TRUE(s.flush(120s)) << describe(s.metrics().counters);
  const auto c = s.metrics().counters;
  SCOPED_TRACE(describe(c));
  std::printf("killed node %d (leader of partition 0); %d updates put; %s\n", victim, written.load(),
              describe(c).c_str());
  expect_conservation(c);
  EXPECT_EQ(c.failure, 0u);
  EXPECT_EQ(c.pending, 0u);
  const auto wrong = load.wrong_keys(config, topic);
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " key(s) without their latest status on the topic, e.g. "
                             << (wrong.empty() ? "" : wrong.front());
  EXPECT_EQ(s.stop().failed, 0u);

  // The restarted node caught up: every partition is fully replicated again.
  EXPECT_TRUE(fully_replicated(bootstrap(), topic, 60s)) << "the restarted node did not rejoin the ISR";
}
