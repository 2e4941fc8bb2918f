// Own writes on librdkafka's mock cluster: every record carries this store's writer header, the status
// reader recognises it, and a tombstone whose send timed out although the broker kept it — the mock
// answers late, after message.timeout.ms, as a leader that dies mid-request does — is retried, never
// abandoned as another writer's delete. Real time here; the exact interleavings are in
// tests/actor/own_writes_test.cpp and the simulation.
#include "actors/kafka/mock_cluster.hpp"
#include "actors/kafka/topic_consumer.hpp"
#include "actors/kafka/topic_snapshot.hpp"
#include "app/store/store.hpp"
#include "config/client_settings.hpp"
#include "messages/status_record_codec.hpp"
#include "mock_store.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace status_store;
using namespace std::chrono_literals;

namespace {

/// One partition, and a long fixed backoff: each timed-out send leaves the key waiting for its retry
/// for a while, the window in which a late read-back of the kept copy used to abandon it.
worker_config own_writes_config(const std::string& topic) {
  return integration::mock_config(topic, {{"status.storage.partitions", "1"},
                                          {"status.storage.replication.factor", "1"},
                                          {"status.storage.retry.initial.backoff.ms", "1500"},
                                          {"status.storage.retry.max.backoff.ms", "1500"},
                                          {"status.storage.retry.jitter.factor", "0"}});
}

using integration::reader_settings;

std::vector<consumed_record> read_all(const store& s, const std::string& topic, const std::string& writer_id) {
  topic_consumer consumer{reader_settings(s), topic, 30s, writer_id};
  std::vector<consumed_record> records;
  const auto give_up = std::chrono::steady_clock::now() + 30s;
  while (!consumer.caught_up() && std::chrono::steady_clock::now() < give_up) consumer.poll(records, 1000, 100ms);
  EXPECT_TRUE(consumer.caught_up());
  return records;
}

constexpr int16_t produce_api = 0, fetch_api = 1;

/// The next `count` requests of `api_key` to every broker succeed but are answered `rtt_ms` late.
void answer_late(mock_cluster& mock, int16_t api_key, int count, int rtt_ms) {
  for (int32_t broker = 1; broker <= mock.brokers(); ++broker)
    for (int i = 0; i < count; ++i)
      rd_kafka_mock_broker_push_request_error_rtts(mock.handle(), broker, api_key, 1, RD_KAFKA_RESP_ERR_NO_ERROR,
                                                   rtt_ms);
}

}  // namespace

TEST(OwnWritesOnMockCluster, EveryRecordCarriesTheWriterHeaderAndOnlyItsOwnStoreCallsItOwn) {
  const std::string topic = "it-own-writes-header";
  store s{own_writes_config(topic), store_options{.jitter_seed = 7}};
  ASSERT_EQ(s.writer_id().size(), 16u);
  s.put(connector_status{"conn", status_value{status_state::running, std::nullopt, "w1", 1}});
  s.put(task_status{"conn", 0, status_value{status_state::destroyed, std::nullopt, "w1", 1}});  // a tombstone
  ASSERT_TRUE(s.flush(30s));

  auto own = read_all(s, topic, s.writer_id());
  ASSERT_EQ(own.size(), 2u);
  for (const auto& r : own) EXPECT_TRUE(r.own) << r.key;
  EXPECT_TRUE(own[1].tombstone);  // put order across idle keys is kept
  for (const auto& r : read_all(s, topic, "0123456789abcdef")) EXPECT_FALSE(r.own) << r.key;  // another store's id
  for (const auto& r : read_all(s, topic, "")) EXPECT_FALSE(r.own) << r.key;  // a reader that writes nothing
}

TEST(OwnWritesOnMockCluster, ATombstoneThatTimedOutButReachedTheTopicIsRetriedNotAbandoned) {
  const std::string topic = "it-own-writes-timeout";
  store s{own_writes_config(topic), store_options{.jitter_seed = 7}};
  auto* mock = s.embedded_mock_cluster();
  ASSERT_NE(mock, nullptr);
  s.put(task_status{"conn", 0, status_value{status_state::running, std::nullopt, "w1", 1}});
  ASSERT_TRUE(s.flush(30s));

  // The next three sends are appended at once but answered 2.5 s late: the client gives up after 1 s
  // and retries 1.5 s later. The reader's fetches come back 1.2 s late, so it sees each kept copy
  // while the key waits for its retry, as a reader fetching from a failing leader does.
  answer_late(*mock, produce_api, 3, 2500);
  answer_late(*mock, fetch_api, 8, 1200);
  s.put(task_status{"conn", 0, status_value{status_state::destroyed, std::nullopt, "w1", 1}});
  ASSERT_TRUE(s.flush(60s));
  std::this_thread::sleep_for(1s);  // the last copies' read-back

  const auto c = s.metrics().counters;
  EXPECT_EQ(c.accepted, c.success + c.failure + c.coalesced + c.dropped_stale + c.pending);
  EXPECT_GE(c.retry, 2u);
  EXPECT_EQ(c.failure, 0u);
  EXPECT_EQ(c.dropped_stale, 0u) << "a copy of our own tombstone was taken for another writer's";
  EXPECT_EQ(c.success, 2u);

  auto records = read_all(s, topic, s.writer_id());
  // The set-up reproduces the field case only if the broker kept sends the client saw time out.
  ASSERT_GT(records.size(), static_cast<size_t>(c.success)) << "no timed-out send reached the topic";
  EXPECT_TRUE(records.back().tombstone);
  for (const auto& r : records) EXPECT_TRUE(r.own);
  auto latest = read_topic_to_end(reader_settings(s), topic, 30s).latest;
  ASSERT_EQ(latest.count(task_key("conn", 0)), 1u);
  EXPECT_FALSE(latest.at(task_key("conn", 0)).value.has_value());
}
