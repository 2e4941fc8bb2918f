// The whole write path on librdkafka's in-process mock cluster: real producer, real delivery
// reports, injected broker errors and a full outage; what reached the topic is read back by a plain
// consumer. Wall-clock waits are fine here: these tests use real time, unlike the actor tests.
#include "actors/kafka/mock_cluster.hpp"
#include "actors/kafka/topic_snapshot.hpp"
#include "app/store/store.hpp"
#include "config/client_settings.hpp"
#include "messages/java_partitioner.hpp"
#include "messages/status_record_codec.hpp"
#include "mock_store.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <map>
#include <thread>

using namespace status_store;
using namespace std::chrono_literals;
using status_store::integration::mock_config;
using status_store::integration::reader_settings;

namespace {

void expect_conservation(const store_counters& c) {
  EXPECT_EQ(c.accepted, c.success + c.failure + c.coalesced + c.dropped_stale + c.pending);
}

connector_status connector(int key, int version) {
  return connector_status{
      "conn-" + std::to_string(key),
      status_value{
          version % 7 == 0 ? status_state::failed : status_state::running,
          version % 7 == 0 ? std::optional<std::string>{"trace\n\tat line " + std::to_string(version)} : std::nullopt,
          "worker-" + std::to_string(version % 3), version}};
}

}  // namespace

TEST(WritePathOnMockCluster, TenThousandUpdatesThroughErrorsAndAnOutageLeaveEveryLatestValueOnTheTopic) {
  store s{mock_config("it-status-outage"), store_options{.jitter_seed = 7}};
  auto* mock = s.embedded_mock_cluster();
  ASSERT_NE(mock, nullptr);
  constexpr int keys = 1000;
  constexpr int updates = 10000;
  std::map<std::string, std::string> expected;  // key -> latest value bytes
  auto put = [&](int i) {
    auto status = connector(i % keys, i);
    expected[connector_key(status.connector)] = *encode_connector_record(status).value;
    s.put(status);
  };

  // Retriable broker errors on the next produce requests, then a full outage mid-stream.
  mock->push_produce_errors({RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS, RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT,
                             RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS_AFTER_APPEND, RD_KAFKA_RESP_ERR_KAFKA_STORAGE_ERROR,
                             RD_KAFKA_RESP_ERR_NETWORK_EXCEPTION});
  for (int i = 0; i < 4000; ++i) put(i);
  // (Every broker down, so the mock's metadata during the outage does not matter: librdkafka >= 2.10's
  // mock drops down brokers from it, 2.0.2's and 2.8.0's keep them; the test holds for both.)
  mock->set_broker_down(-1);
  for (int i = 4000; i < 8000; ++i) put(i);
  std::this_thread::sleep_for(2500ms);  // longer than message.timeout.ms: attempts fail and back off
  mock->set_broker_up(-1);
  for (int i = 8000; i < updates; ++i) put(i);

  ASSERT_TRUE(s.flush(120s));
  auto c = s.metrics().counters;
  expect_conservation(c);
  EXPECT_EQ(c.accepted, static_cast<uint64_t>(updates));
  EXPECT_EQ(c.pending, 0u);
  EXPECT_EQ(c.failure, 0u);
  EXPECT_GT(c.retry, 0u);      // the injected errors and the outage were retried
  EXPECT_GT(c.coalesced, 0u);  // updates of busy keys were replaced, not queued
  EXPECT_EQ(c.success + c.coalesced, static_cast<uint64_t>(updates));

  auto topic = read_topic_to_end(reader_settings(s), "it-status-outage", 60s);
  ASSERT_EQ(topic.partitions, 5);
  EXPECT_EQ(topic.latest.size(), static_cast<size_t>(keys));
  size_t wrong = 0;
  for (const auto& [key, value] : expected) {
    auto it = topic.latest.find(key);
    if (it == topic.latest.end() || it->second.value != value) ++wrong;
  }
  EXPECT_EQ(wrong, 0u) << "keys whose latest value is not on the topic";
  // Every acknowledged update is on the topic. A send whose acknowledgement was lost when the brokers
  // went down (appended, then the connection closed) is on the topic too, and its retry writes the
  // key again: so at least one record per acknowledgement, and every extra record is the copy of an
  // attempt that ended unacknowledged (retried, failed or abandoned). How many updates coalesce
  // depends on the caller's speed against the broker's (under ThreadSanitizer far fewer do).
  std::cout << "records on the topic " << topic.records << ", acknowledged " << c.success << ", retries " << c.retry
            << ", coalesced " << c.coalesced << "\n";
  EXPECT_GE(topic.records, c.success);
  EXPECT_LE(topic.records, c.success + c.retry + c.failure + c.dropped_stale);
  auto report = s.stop();
  EXPECT_EQ(report.failed, 0u);
}

TEST(WritePathOnMockCluster, ANonRetriableErrorIsCountedAsFailureWithoutRetry) {
  store s{mock_config("it-status-fatal"), store_options{.jitter_seed = 7}};
  s.embedded_mock_cluster()->push_produce_errors({RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE});  // e.g. an oversized trace
  s.put(connector(1, 1));
  ASSERT_TRUE(s.flush(30s));
  auto c = s.metrics().counters;
  expect_conservation(c);
  EXPECT_EQ(c.failure, 1u);
  EXPECT_EQ(c.retry, 0u);
  EXPECT_EQ(c.success, 0u);
  // The store keeps working for the next update.
  s.put(connector(1, 2));
  ASSERT_TRUE(s.flush(30s));
  EXPECT_EQ(s.metrics().counters.success, 1u);
}

TEST(WritePathOnMockCluster, EveryKeyLandsOnTheSamePartitionAsJavasDefaultPartitioner) {
  store s{mock_config("it-status-partitions"), store_options{.jitter_seed = 7}};
  std::vector<std::string> written;
  for (int i = 0; i < 200; ++i) {
    task_status t{"conn-" + std::to_string(i % 17) + "-with-dashes", i,
                  status_value{status_state::running, {}, "w", 1}};
    written.push_back(task_key(t.connector, t.task));
    s.put(t);
  }
  s.put(topic_status{"orders.v1", "sink-ü", 0, 1580000000000});
  written.push_back(topic_key("orders.v1", "sink-ü"));
  ASSERT_TRUE(s.flush(30s));
  auto topic = read_topic_to_end(reader_settings(s), "it-status-partitions", 30s);
  ASSERT_EQ(topic.latest.size(), written.size());
  for (const auto& key : written) {
    auto it = topic.latest.find(key);
    ASSERT_NE(it, topic.latest.end()) << key;
    EXPECT_EQ(it->second.partition, java_partition_for_key(key, 5)) << key;
  }
}
