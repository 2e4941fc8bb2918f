// status-store against one real Apache Kafka broker (scripts/kafka-local.sh): the write path on a
// healthy broker, and the status topic set-up (created compacted, or refused when not compacted).
#include "kafka_cluster.hpp"
#include "workload.hpp"

#include "config/config_error.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace status_store;
using namespace status_store::system_test;
using namespace std::chrono_literals;

namespace {

struct HealthyBroker : single_node_test {};
struct StatusTopic : single_node_test {};
struct StoreStartUp : single_node_test {};

}  // namespace

TEST_F(HealthyBroker, FiveThousandUpdatesOverFiveHundredKeysLeaveEveryLatestStatusOnTheTopicWithoutRetries) {
  const auto topic = unique_topic("healthy");
  const auto config = this->config(topic, {{"status.storage.partitions", "5"}});
  workload load{"healthy", 500};
  constexpr int updates = 5000;
  metrics_snapshot after;
  {
    auto s = open_store(config, store_options{.jitter_seed = 1});
    for (int i = 0; i < updates; ++i) {
      // The last round deletes every 50th key: its latest "status" is a tombstone.
      load.put_round_robin(*s, i, /*destroyed=*/i >= updates - load.keys() && i % 50 == 7);
    }
    ASSERT_TRUE(s->flush(60s));
    after = s->metrics();
    const auto report = s->stop();
    EXPECT_EQ(report.failed, 0u);
  }
  const auto& c = after.counters;
  SCOPED_TRACE(describe(c));
  expect_conservation(c);
  EXPECT_EQ(c.accepted, static_cast<uint64_t>(updates));
  EXPECT_EQ(c.pending, 0u);
  EXPECT_EQ(c.failure, 0u);
  EXPECT_EQ(c.retry, 0u) << "a healthy broker needs no retry";
  EXPECT_EQ(c.success + c.coalesced, static_cast<uint64_t>(updates));

  topic_contents contents;
  const auto wrong = load.wrong_keys(config, topic, &contents);
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " key(s) without their latest status on the topic, e.g. "
                             << (wrong.empty() ? "" : wrong.front());
  EXPECT_EQ(contents.latest.size(), 500u);
  // Acknowledged writes = records on the topic (a fresh topic, no retry, nothing compacted yet).
  EXPECT_EQ(static_cast<uint64_t>(count_records(bootstrap(), topic)), c.success);
  EXPECT_EQ(contents.records, c.success);

  // A second store (a worker that starts later) replays the topic and serves the same statuses.
  auto reader = open_store(config);
  auto expected = load.expected();
  size_t mismatches = 0;
  for (int k = 0; k < load.keys() / 5; ++k) {
    const auto name = load.connector_name(k);
    const auto key = connector_key(name);
    const auto view = reader->describe(name);
    const auto& latest = expected.at(key);
    if (!latest) {
      mismatches += view.found ? 1 : 0;  // deleted: gone from the view, as in Connect
    } else if (!view.found || encode_connector_record(view.connector).value != latest) {
      ++mismatches;
    }
    for (const auto& task : view.tasks)
      if (encode_task_record(task).value != expected.at(task_key(name, task.task))) ++mismatches;
  }
  EXPECT_EQ(mismatches, 0u) << "statuses the second store's view got wrong";
  EXPECT_EQ(reader->metrics().view.replay_records, contents.records);
  reader->stop();
}

TEST_F(StatusTopic, IsCreatedCompactedWithTheConfiguredPartitionsReplicationFactorAndTopicSettings) {
  const auto topic = unique_topic("created");
  const auto config = this->config(topic, {{"status.storage.partitions", "7"},
                                           {"status.storage.replication.factor", "1"},
                                           {"status.storage.min.cleanable.dirty.ratio", "0.01"},
                                           {"status.storage.segment.ms", "600000"}});
  {
    auto s = open_store(config);
    s->put(connector_status{"c", {status_state::running, {}, "w:8083", 1}});
    ASSERT_TRUE(s->flush(30s));
    s->stop();
  }
  const auto partitions = describe_partitions(bootstrap(), topic);
  ASSERT_EQ(partitions.size(), 7u);
  for (const auto& p : partitions) {
    EXPECT_EQ(p.replicas.size(), 1u) << "partition " << p.id;
    EXPECT_EQ(p.isrs.size(), 1u) << "partition " << p.id;
  }
  const auto configs = describe_topic_config(bootstrap(), topic);
  EXPECT_EQ(configs.at("cleanup.policy"), "compact");
  EXPECT_EQ(configs.at("min.cleanable.dirty.ratio"), "0.01");
  EXPECT_EQ(configs.at("segment.ms"), "600000");
}

TEST_F(StatusTopic, ACleanupPolicyOverrideIsIgnoredAndTheTopicIsStillCompacted) {
  const auto topic = unique_topic("policy-override");
  std::vector<std::string> warnings;
  properties props{{"bootstrap.servers", bootstrap()},
                   {"status.storage.topic", topic},
                   {"status.storage.partitions", "1"},
                   {"status.storage.replication.factor", "1"},
                   {"status.storage.cleanup.policy", "delete"}};
  const auto config = parse_worker_config(props, &warnings);
  EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
    return w.find("cleanup.policy") != std::string::npos;
  })) << "no warning about the ignored status.storage.cleanup.policy";
  open_store(config)->stop();
  EXPECT_EQ(describe_topic_config(bootstrap(), topic).at("cleanup.policy"), "compact");
}

TEST_F(StatusTopic, AnExistingTopicThatIsNotCompactedStopsStartUpWithConnectsMessage) {
  const auto topic = unique_topic("delete-policy");
  create_topic(bootstrap(), topic, 1, 1, {{"cleanup.policy", "delete"}});
  const auto config = this->config(topic, {{"status.storage.partitions", "1"}});
  try {
    store s{config};
    FAIL() << "the store started on a topic with cleanup.policy=delete";
  } catch (const config_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Topic '" + topic +
                        "' supplied via the 'status.storage.topic' property is required to have "
                        "'cleanup.policy=compact' to guarantee consistency and durability of connector and task "
                        "statuses, but found the topic currently has 'cleanup.policy=delete'."),
              std::string::npos)
        << what;
    EXPECT_EQ(e.property(), "status.storage.topic");
  }
  // The refusal changed nothing: the topic is still the user's, with its own policy.
  EXPECT_EQ(describe_topic_config(bootstrap(), topic).at("cleanup.policy"), "delete");
}

TEST_F(StatusTopic, ACompactDeletePolicyIsRefusedToo) {
  // Connect requires exactly "compact": "compact,delete" still deletes old statuses by retention.
  const auto topic = unique_topic("compact-delete");
  create_topic(bootstrap(), topic, 1, 1, {{"cleanup.policy", "compact,delete"}});
  EXPECT_THROW(store(this->config(topic, {{"status.storage.partitions", "1"}})), config_error);
}

// Pins a fix (9cdc680): right after the store created its topic, the replay's ListOffsets got
// NOT_LEADER_FOR_PARTITION before the broker had taken leadership of the new partitions, and start-up
// threw at once instead of retrying within status.storage.startup.timeout.ms. On Kafka 4.4.0 that
// happened for nearly every fresh topic of more than one partition.
TEST_F(StoreStartUp, OnATopicItHasJustCreatedSucceedsAtTheFirstAttempt) {
  int failed = 0;
  for (int i = 0; i < 5; ++i) {
    const auto topic = unique_topic("fresh-" + std::to_string(i));
    try {
      store s{this->config(topic, {{"status.storage.partitions", "5"}})};
    } catch (const std::exception& e) {
      ++failed;
      ADD_FAILURE() << "start-up on the freshly created topic '" << topic << "' failed: " << e.what();
    }
  }
  EXPECT_EQ(failed, 0);
}
