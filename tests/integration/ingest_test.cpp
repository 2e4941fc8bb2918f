// The ingest table under real threads on librdkafka's mock cluster: several callers put at once (the
// TSan build runs this too), the conservation law holds at every snapshot taken meanwhile, every
// key's latest status reaches the topic, and an update storm with the brokers down for part of it
// keeps the process's memory bounded by keys, not by updates.
#include "actors/kafka/mock_cluster.hpp"
#include "actors/kafka/topic_snapshot.hpp"
#include "app/store/store.hpp"
#include "config/client_settings.hpp"
#include "messages/status_record_codec.hpp"
#include "messages/status_updates.hpp"
#include "mock_store.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace status_store;
using namespace std::chrono_literals;

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool sanitized = true;  // 10-20x slower, and shadow memory makes RSS meaningless
#else
constexpr bool sanitized = false;
#endif

worker_config storm_config(const std::string& topic) {
  return integration::mock_config(topic, {{"group.id", "it-ingest"}});
}

using integration::reader_settings;

task_status task(int key, int version) {
  return task_status{"conn-" + std::to_string(key / 8), key % 8,
                     status_value{version % 2 ? status_state::running : status_state::paused, std::nullopt,
                                  "worker-" + std::to_string(key % 3) + ":8083", version}};
}

/// Resident set size of this process in KiB (Linux).
long rss_kib() {
  std::ifstream status{"/proc/self/status"};
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

/// `threads` callers, each putting `updates` updates over its own `keys_each` keys; meanwhile a
/// sampler checks the conservation law on every snapshot. Returns key -> latest value bytes.
std::map<std::string, std::string> put_concurrently(store& s, int threads, int keys_each, int updates,
                                                    std::atomic<bool>& stop_sampling, int& snapshots_checked) {
  std::vector<std::map<std::string, std::string>> latest(static_cast<size_t>(threads));
  std::vector<std::thread> callers;
  for (int t = 0; t < threads; ++t)
    callers.emplace_back([&, t] {
      for (int i = 0; i < updates; ++i) {
        const int key = t * keys_each + i % keys_each;
        auto status = task(key, i);
        if (i >= updates - keys_each)
          latest[static_cast<size_t>(t)][task_key(status.connector, status.task)] = *encode_task_record(status).value;
        s.put(status);
      }
    });
  for (auto& c : callers) c.join();
  stop_sampling = true;
  std::map<std::string, std::string> all;
  for (auto& l : latest) all.insert(l.begin(), l.end());
  (void)snapshots_checked;
  return all;
}

}  // namespace

TEST(IngestOnMockCluster, SeveralCallersPuttingAtOnceKeepTheLawAtEverySnapshotAndWriteEveryLatestStatus) {
  const std::string topic = "it-ingest-concurrent";
  store s{storm_config(topic), store_options{.jitter_seed = 3}};
  constexpr int threads = 4, keys_each = 250;
  const int updates = sanitized ? 5'000 : 50'000;
  std::atomic<bool> done{false};
  int snapshots = 0, broken = 0;
  std::thread sampler{[&] {
    while (!done) {
      const auto c = s.metrics().counters;
      ++snapshots;
      if (c.accepted != c.success + c.failure + c.coalesced + c.dropped_stale + c.pending) ++broken;
      std::this_thread::sleep_for(2ms);
    }
  }};
  auto expected = put_concurrently(s, threads, keys_each, updates, done, snapshots);
  sampler.join();
  ASSERT_TRUE(s.flush(120s));
  const auto c = s.metrics().counters;
  EXPECT_EQ(broken, 0) << "of " << snapshots << " snapshots taken while the callers put";
  EXPECT_GT(snapshots, 0);
  EXPECT_EQ(c.accepted, static_cast<uint64_t>(threads) * static_cast<uint64_t>(updates));
  EXPECT_EQ(c.accepted, c.success + c.coalesced);
  EXPECT_EQ(c.failure + c.dropped_stale + c.pending, 0u);
  EXPECT_GT(c.coalesced, 0u) << "no update was replaced: the test did not pile updates up";
  auto contents = read_topic_to_end(reader_settings(s), topic, 60s);
  size_t wrong = 0;
  for (const auto& [key, value] : expected) {
    auto it = contents.latest.find(key);
    if (it == contents.latest.end() || it->second.value != value) ++wrong;
  }
  EXPECT_EQ(expected.size(), static_cast<size_t>(threads * keys_each));
  EXPECT_EQ(wrong, 0u) << "keys whose latest status is not on the topic";
  EXPECT_EQ(contents.records, c.success);
}

TEST(IngestOnMockCluster, PutAllOfStatusesWritesWhatPutOfEachWouldInOrderAcrossChunks) {
  const std::string topic = "it-ingest-put-all";
  store s{integration::mock_config(topic, {{"status.storage.trace.max.bytes", "1024"}}),
          store_options{.jitter_seed = 7}};
  // 2,500 task statuses over 1,000 keys: more than two chunks, each key put two or three times, the
  // last put of a key in a later chunk than its first.
  std::vector<task_status> tasks;
  std::map<std::string, std::string> expected;
  for (int i = 0; i < 2'500; ++i) {
    tasks.push_back(task(i % 1'000, i / 1'000));
    expected[task_key(tasks.back().connector, tasks.back().task)] = *encode_task_record(tasks.back()).value;
  }
  ASSERT_GT(tasks.size(), 2 * store::put_all_chunk);
  // A connector whose trace is over the budget is written cut, as put() would write it.
  const connector_status failed{"conn-failed",
                                status_value{status_state::failed, std::string(5'000, 't'), "worker-0:8083", 3}};
  connector_status cut = failed;
  fit_trace(cut.value, 1024);
  const std::vector<connector_status> connectors{failed, connector_status{"conn-0", tasks.front().value}};
  expected[connector_key("conn-failed")] = *encode_connector_record(cut).value;
  expected[connector_key("conn-0")] = *encode_connector_record(connectors.back()).value;

  s.put_all(tasks);
  s.put_all(connectors);
  ASSERT_TRUE(s.flush(60s));
  const auto c = s.metrics().counters;
  EXPECT_EQ(c.accepted, tasks.size() + connectors.size());
  EXPECT_EQ(c.accepted, c.success + c.coalesced);
  auto contents = read_topic_to_end(reader_settings(s), topic, 60s);
  EXPECT_EQ(contents.latest.size(), expected.size());
  size_t wrong = 0;
  for (const auto& [key, value] : expected) {
    auto it = contents.latest.find(key);
    if (it == contents.latest.end() || it->second.value != value) ++wrong;
  }
  EXPECT_EQ(wrong, 0u) << "keys whose latest status on the topic is not their last put's";
  EXPECT_LT(expected[connector_key("conn-failed")].size(), 2'000u);
}

TEST(IngestOnMockCluster, AnUpdateStormWithTheBrokersDownKeepsMemoryBoundedByKeys) {
  const std::string topic = "it-ingest-storm";
  store s{storm_config(topic), store_options{.jitter_seed = 5}};
  auto* mock = s.embedded_mock_cluster();
  ASSERT_NE(mock, nullptr);
  constexpr int threads = 4, keys_each = 250;
  // 2,000,000 in all over 1,000 keys, in three waves: brokers up, every broker down, up again.
  const int wave = sanitized ? 20'000 : 166'667;
  // Idle: started, one update per key written (every key's state exists), nothing pending.
  for (int k = 0; k < threads * keys_each; ++k) s.put(task(k, 0));
  ASSERT_TRUE(s.flush(60s));
  std::this_thread::sleep_for(500ms);
  const long idle_kib = rss_kib();
  std::atomic<bool> done{false};
  std::atomic<long> peak_kib{idle_kib};
  std::thread sampler{[&] {
    while (!done) {
      peak_kib = std::max(peak_kib.load(), rss_kib());
      std::this_thread::sleep_for(20ms);
    }
  }};
  std::atomic<bool> wave_done{false};
  int unused = 0;
  put_concurrently(s, threads, keys_each, wave, wave_done, unused);
  mock->set_broker_down(-1);
  put_concurrently(s, threads, keys_each, wave, wave_done, unused);
  std::this_thread::sleep_for(2500ms);  // longer than message.timeout.ms: sends time out and back off
  mock->set_broker_up(-1);
  auto expected = put_concurrently(s, threads, keys_each, wave, wave_done, unused);
  ASSERT_TRUE(s.flush(120s));
  done = true;
  sampler.join();
  const int updates = 3 * wave;
  const auto c = s.metrics().counters;
  std::printf(
      "storm: %d updates over %d keys, idle RSS %ld KiB, peak %ld KiB (+%ld KiB); %llu written, %llu "
      "coalesced, %llu retries\n",
      threads * updates, threads * keys_each, idle_kib, peak_kib.load(), peak_kib - idle_kib,
      static_cast<unsigned long long>(c.success), static_cast<unsigned long long>(c.coalesced),
      static_cast<unsigned long long>(c.retry));
  EXPECT_EQ(c.failure + c.dropped_stale + c.pending, 0u);
  EXPECT_EQ(c.accepted, c.success + c.coalesced);
  EXPECT_GT(c.retry, 0u) << "the outage failed no send: the test proves nothing about it";
  // The in-process mock broker keeps every record written (no compaction, no retention): up to 0.4 KiB
  // each, which a real broker keeps on its side. The store's own share must not grow with updates.
  const long mock_log_kib = static_cast<long>(c.success * 2 / 5);
  if (!sanitized) {
    EXPECT_LT(peak_kib - idle_kib - mock_log_kib, 16 * 1024) << "memory grew with updates, not keys";
  }
  auto contents = read_topic_to_end(reader_settings(s), topic, 60s);
  size_t wrong = 0;
  for (const auto& [key, value] : expected) {
    auto it = contents.latest.find(key);
    if (it == contents.latest.end() || it->second.value != value) ++wrong;
  }
  EXPECT_EQ(wrong, 0u) << "keys whose latest status is not on the topic";
}
