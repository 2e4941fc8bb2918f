// The read side on librdkafka's mock cluster: a store replays a topic written by someone else (another
// writer: 100,000 records with tombstones and malformed records) to exactly the expected view,
// and two stores sharing one topic see each other's statuses.
#include "app/store/store.hpp"
#include "config/client_settings.hpp"
#include "messages/status_record_codec.hpp"
#include "mock_store.hpp"
#include "other_writer.hpp"

#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>

#include <chrono>
#include <map>
#include <random>
#include <set>
#include <thread>

using namespace status_store;
using namespace std::chrono_literals;
using integration::eventually;

namespace {

worker_config config_for(const std::string& bootstrap, const std::string& topic, const std::string& group) {
  return parse_worker_config({{"bootstrap.servers", bootstrap},
                              {"group.id", group},
                              {"status.storage.topic", topic},
                              {"status.storage.partitions", "5"},
                              {"status.storage.replication.factor", "1"},
                              {"status.storage.retry.initial.backoff.ms", "50"},
                              {"status.storage.retry.max.backoff.ms", "500"},
                              {"producer.message.timeout.ms", "2000"}});
}

}  // namespace

TEST(ReadPathOnMockCluster, ReplayOfAHundredThousandRecordsGivesExactlyTheExpectedView) {
  // Store A only provides the embedded mock cluster and creates the topic.
  store host{config_for("mock", "replay-status", "host")};
  const std::string bootstrap = host.bootstrap_servers();
  constexpr int connectors = 500, tasks = 4, records = 100000;
  std::map<std::string, connector_status> expected_connectors;
  std::map<std::pair<std::string, int32_t>, task_status> expected_tasks;
  std::map<std::pair<std::string, std::string>, topic_status> expected_topics;
  uint64_t malformed = 0;
  {
    integration::other_writer writer{bootstrap};
    std::mt19937_64 random{2024};
    auto pick = [&](int n) { return static_cast<int>(random() % n); };
    // Records of different keys land on different partitions, whose relative order a reader does
    // not see. So, as Connect's herder does, a deleted connector first gets a tombstone for each
    // task, and its name is never used again: the expected view is then the same in any order.
    std::set<std::string> retired;
    for (int i = 0; i < records; ++i) {
      const std::string c = "conn-" + std::to_string(pick(connectors)) + (i % 3 ? "" : "-with-dashes");
      if (retired.count(c)) {
        --i;
        continue;
      }
      const int roll = pick(100);
      const int32_t generation = i;  // increasing: the KAFKA-12525 filter never applies here
      if (roll < 40) {
        task_status t{
            c, pick(tasks), {status_state::running, std::nullopt, "w-" + std::to_string(pick(3)), generation}};
        if (pick(5) == 0) t.value = {status_state::failed, "boom\n\tat \"x\"", "w-1", generation};
        writer.send("replay-status", task_key(t.connector, t.task), encode_status_value(t.value));
        expected_tasks[{t.connector, t.task}] = t;
      } else if (roll < 65) {
        connector_status s{c, {status_state::paused, std::nullopt, "w-2", generation}};
        writer.send("replay-status", connector_key(c), encode_status_value(s.value));
        expected_connectors[c] = s;
      } else if (roll < 80) {
        topic_status t{"topic-" + std::to_string(pick(4)), c, pick(tasks), 1580000000000 + i};
        writer.send("replay-status", topic_key(t.topic, c), encode_topic_value(t));
        expected_topics[{c, t.topic}] = t;
      } else if (roll < 81 && retired.size() < connectors / 2) {  // deletion: task tombstones, then the connector's
        for (int t = 0; t < tasks; ++t) writer.send("replay-status", task_key(c, t), std::nullopt);
        writer.send("replay-status", connector_key(c), std::nullopt);
        i += tasks;
        expected_connectors.erase(c);
        for (int t = 0; t < tasks; ++t) expected_tasks.erase({c, t});
        retired.insert(c);
      } else if (roll < 89) {
        const int32_t t = pick(tasks);
        writer.send("replay-status", task_key(c, t), std::nullopt);
        expected_tasks.erase({c, t});
      } else if (roll < 92) {
        const std::string topic = "topic-" + std::to_string(pick(4));
        writer.send("replay-status", topic_key(topic, c), std::nullopt);
        expected_topics.erase({c, topic});
      } else if (roll < 96) {
        // Malformed: skipped and counted, never stops the reader.
        static const char* bad_keys[] = {"status-unknown", "status-connector-", "status-task-conn-x",
                                         "status-topic-:connector-"};
        writer.send("replay-status", bad_keys[pick(4)], std::string{R"({"state":"RUNNING"})"});
        ++malformed;
      } else {
        writer.send("replay-status", connector_key(c), std::string{"not json {"});  // changes nothing
        ++malformed;
      }
    }
    writer.flush();
  }

  const auto started = std::chrono::steady_clock::now();
  store replayer{config_for(bootstrap, "replay-status", "replayer")};
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  auto m = replayer.metrics();
  EXPECT_GE(m.view.replay_records, static_cast<uint64_t>(records));
  EXPECT_EQ(m.view.read_errors, malformed);
  std::cout << "replayed " << records << " records in " << seconds << " s (" << records / seconds << " records/s)\n";

  // Compare every connector's view with the model.
  std::set<std::string> names;
  for (const auto& [c, s] : expected_connectors) names.insert(c);
  for (const auto& [k, t] : expected_tasks) names.insert(k.first);
  for (const auto& [k, t] : expected_topics) names.insert(k.first);
  size_t mismatches = 0;
  for (const auto& c : names) {
    auto v = replayer.describe(c);
    auto it = expected_connectors.find(c);
    if (v.found != (it != expected_connectors.end()) || (v.found && !(v.connector == it->second))) ++mismatches;
    std::vector<task_status> want_tasks;
    for (const auto& [k, t] : expected_tasks)
      if (k.first == c) want_tasks.push_back(t);
    if (v.tasks != want_tasks) ++mismatches;
    std::vector<topic_status> want_topics;
    for (const auto& [k, t] : expected_topics)
      if (k.first == c) want_topics.push_back(t);
    if (v.topics != want_topics) ++mismatches;
  }
  EXPECT_EQ(mismatches, 0u);
  std::vector<std::string> want_list;
  for (const auto& [c, s] : expected_connectors) want_list.push_back(c);
  EXPECT_EQ(replayer.connectors(), want_list);
}

TEST(ReadPathOnMockCluster, TwoWorkersSharingATopicSeeEachOtherAndStaleGenerationsCannotOverwrite) {
  store a{config_for("mock", "shared-status", "cluster")};
  store b{config_for(a.bootstrap_servers(), "shared-status", "cluster")};

  a.put(connector_status{"shared", {status_state::running, std::nullopt, "worker-a", 2}});
  ASSERT_TRUE(a.flush(20s));
  ASSERT_TRUE(eventually([&] { return b.get("shared").has_value(); })) << "B never read A's status";
  EXPECT_EQ(b.get("shared")->value.worker_id, "worker-a");

  // B is behind (generation 1): its putSafe must not overwrite A's generation 2.
  b.put_safe(connector_status{"shared", {status_state::unassigned, std::nullopt, "worker-b", 1}});
  ASSERT_TRUE(b.flush(20s));
  EXPECT_EQ(b.metrics().counters.dropped_stale, 1u);
  // With the newer generation it may.
  b.put_safe(task_status{"shared", 0, {status_state::running, std::nullopt, "worker-b", 3}});
  b.put_safe(connector_status{"shared", {status_state::failed, "trace", "worker-b", 3}});
  ASSERT_TRUE(b.flush(20s));
  ASSERT_TRUE(eventually([&] {
    auto s = a.get("shared");
    return s && s->value.worker_id == "worker-b" && a.get("shared", 0).has_value();
  })) << "A never read B's statuses";
  EXPECT_EQ(a.get("shared")->value.state, status_state::failed);
  EXPECT_EQ(a.get("shared")->value.trace, std::optional<std::string>{"trace"});

  // A deletes the topic status B wrote; both views lose it.
  b.put(topic_status{"orders", "shared", 0, 1580000000000});
  ASSERT_TRUE(b.flush(20s));
  ASSERT_TRUE(eventually([&] { return a.get_topic("shared", "orders").has_value(); }));
  a.delete_topic("shared", "orders");
  ASSERT_TRUE(a.flush(20s));
  EXPECT_TRUE(eventually([&] { return !b.get_topic("shared", "orders").has_value(); }));
  EXPECT_TRUE(b.get_all_topics("shared").empty());
  b.stop();
  a.stop();
}
