// History and flapping through the facade on librdkafka's mock cluster: another writer (tests/integration/other_writer.hpp,
// its records stamped with their own create times) drives a task RUNNING → FAILED →
// RUNNING → FAILED; the store's history shows the four transitions with those timestamps, and the
// task flaps with a threshold of 2.
#include "app/store/store.hpp"
#include "messages/status_record_codec.hpp"
#include "other_writer.hpp"

#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>

#include <chrono>
#include <thread>

using namespace status_store;
using namespace std::chrono_literals;

namespace {

status_record task_record(status_state state, int32_t generation) {
  return encode_task_record(task_status{
      "sink", 0,
      status_value{state, state == status_state::failed ? std::optional<std::string>{"boom\n\tat X"} : std::nullopt,
                   "other-worker:8083", generation}});
}

}  // namespace

TEST(HistoryOnMockCluster, ATaskDrivenRunningFailedTwiceShowsFourTransitionsAndFlaps) {
  store s{parse_worker_config({{"bootstrap.servers", "mock"},
                               {"group.id", "history"},
                               {"status.storage.topic", "history-status"},
                               {"status.storage.partitions", "3"},
                               {"status.storage.replication.factor", "1"},
                               {"status.flap.threshold", "2"}})};
  const int64_t t0 =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  const status_state states[] = {status_state::running, status_state::failed, status_state::running,
                                 status_state::failed};
  integration::other_writer other{s.bootstrap_servers()};
  for (int i = 0; i < 4; ++i) {
    const auto r = task_record(states[i], 1 + i);
    other.send("history-status", r.key, r.value, t0 + 1000 * i);
  }
  other.flush();

  key_history h;
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while ((h = s.history("sink", 0)).transitions.size() < 4 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(20ms);
  ASSERT_EQ(h.transitions.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(h.transitions[i].state, states[i]) << i;
    EXPECT_EQ(h.transitions[i].timestamp_ms, t0 + 1000 * i) << i;
    EXPECT_EQ(h.transitions[i].generation, 1 + i) << i;
    EXPECT_EQ(h.transitions[i].worker_id, "other-worker:8083") << i;
    EXPECT_FALSE(h.transitions[i].own) << i;  // another writer's records
  }
  EXPECT_EQ(h.transitions[1].trace_first_line, "boom");
  EXPECT_TRUE(h.any_kept);
  EXPECT_EQ(h.reaches_back_to_ms, t0);
  EXPECT_TRUE(s.history("sink").transitions.empty());  // the connector itself has no status

  const auto flapping = s.flapping();
  ASSERT_EQ(flapping.size(), 1u);
  EXPECT_EQ(flapping[0], (flapping_key{"sink", true, 0, t0 + 3000}));
  s.stop();
}
