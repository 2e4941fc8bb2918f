// status-store while its only broker is down: an outage shorter than the retry window loses nothing,
// one longer than it fails each waiting update once and the store carries on, and a shutdown during
// an outage ends within status.storage.shutdown.drain.timeout.ms. The broker is stopped and started
// with scripts/kafka-local.sh (SIGTERM, then the same node again on the same port, no re-format);
// the fixture brings it back up even when a test fails half-way.
#include "kafka_cluster.hpp"
#include "workload.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace status_store;
using namespace status_store::system_test;
using namespace std::chrono_literals;

namespace {

struct BrokerOutage : single_node_test {};

using steady = std::chrono::steady_clock;

long long ms_since(steady::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(steady::now() - t).count();
}

}  // namespace

TEST_F(BrokerOutage, ShorterThanTheRetryWindowLosesNoLatestStatusAndFailsNothing) {
  const auto topic = unique_topic("short-outage");
  // Retry window: 21 attempts of 3 s plus about 18 s of backoff, far beyond the outage (the broker
  // is down for ~3 s plus its restart, ~10-20 s on this machine).
  const auto config = this->config(topic, {{"status.storage.partitions", "5"},
                                           {"producer.message.timeout.ms", "3000"},
                                           {"status.storage.retry.max.retries", "20"},
                                           {"status.storage.retry.initial.backoff.ms", "200"},
                                           {"status.storage.retry.max.backoff.ms", "1000"}});
  workload load{"short", 500};
  auto store_ptr = open_store(config, store_options{.jitter_seed = 2});
  store& s = *store_ptr;

  // A worker reporting steadily, ~1000 updates/s, before, during and after the outage.
  std::atomic<bool> writing{true};
  std::atomic<int> written{0};
  std::thread writer{[&] {
    for (int i = 0; writing; ++i) {
      load.put_round_robin(s, i);
      written = i + 1;
      if (i % 10 == 9) std::this_thread::sleep_for(10ms);
    }
  }};
  std::this_thread::sleep_for(1s);
  const auto outage = steady::now();
  const bool stopped = kafka_local("stop 1");
  std::this_thread::sleep_for(3s);
  const int written_during_outage_start = written;
  const bool started = kafka_local("start 1");
  const auto outage_ms = ms_since(outage);
  std::this_thread::sleep_for(2s);
  writing = false;
  writer.join();
  ASSERT_TRUE(stopped);
  ASSERT_TRUE(started);
  std::printf("broker down for %lld ms; %d updates put, %d of them before the restart began\n", outage_ms,
              written.load(), written_during_outage_start);

  ASSERT_TRUE(s.flush(120s)) << describe(s.metrics().counters);
  const auto c = s.metrics().counters;
  SCOPED_TRACE(describe(c));
  expect_conservation(c);
  EXPECT_EQ(c.accepted, static_cast<uint64_t>(written.load()));
  EXPECT_EQ(c.failure, 0u) << "an outage inside the retry window must not fail an update";
  EXPECT_EQ(c.pending, 0u);
  EXPECT_GT(c.retry, 0u) << "the outage outlasted message.timeout.ms, so updates must have been retried";
  const auto wrong = load.wrong_keys(config, topic);
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " key(s) without their latest status on the topic, e.g. "
                             << (wrong.empty() ? "" : wrong.front());
  EXPECT_EQ(s.stop().failed, 0u);
}

TEST_F(BrokerOutage, LongerThanTheRetryWindowFailsEachWaitingUpdateOnceAndTheStoreCarriesOn) {
  const auto topic = unique_topic("long-outage");
  // Retry window: 3 attempts of 1 s (+ up to ~1.5 s of librdkafka's timeout scan and reconnect
  // backoff each) and 100-250 ms of backoff: well under 10 s; the broker stays down until every
  // update has given up.
  const auto config = this->config(topic, {{"status.storage.partitions", "3"},
                                           {"producer.message.timeout.ms", "1000"},
                                           {"status.storage.retry.max.retries", "2"},
                                           {"status.storage.retry.initial.backoff.ms", "50"},
                                           {"status.storage.retry.max.backoff.ms", "100"}});
  constexpr int keys = 100;
  workload load{"long", keys};
  auto store_ptr = open_store(config, store_options{.jitter_seed = 3});
  store& s = *store_ptr;
  for (int k = 0; k < keys; ++k) load.put(s, k, 1);
  ASSERT_TRUE(s.flush(30s));
  ASSERT_TRUE(eventually([&] { return s.get(load.connector_name(0)).has_value(); }, 10s));
  const auto before = load.expected();

  ASSERT_TRUE(kafka_local("stop 1"));
  const auto outage = steady::now();
  for (int k = 0; k < keys; ++k) load.put(s, k, 2);
  // flush() returns once every update is resolved: here, once each has exhausted its retries.
  ASSERT_TRUE(s.flush(60s)) << "updates still pending a minute into an outage longer than the retry window";
  const auto gave_up_ms = ms_since(outage);
  auto c = s.metrics().counters;
  {
    SCOPED_TRACE(describe(c));
    expect_conservation(c);
    EXPECT_EQ(c.success, static_cast<uint64_t>(keys));
    EXPECT_EQ(c.failure, static_cast<uint64_t>(keys)) << "one failure per key whose update gave up";
    EXPECT_EQ(c.retry, static_cast<uint64_t>(2 * keys)) << "max.retries=2 retries per update, no more";
    EXPECT_EQ(c.pending, 0u);
    std::printf("all %d updates gave up %lld ms into the outage\n", keys, gave_up_ms);
  }

  // Still down: the store serves what it read before the outage and accepts new updates.
  for (int k = 0; k < keys / 5; ++k) {
    const auto status = s.get(load.connector_name(k));
    ASSERT_TRUE(status.has_value()) << load.connector_name(k);
    EXPECT_EQ(encode_connector_record(*status).value, before.at(connector_key(load.connector_name(k))));
  }
  for (int k = 0; k < keys; ++k) load.put(s, k, 3);
  ASSERT_TRUE(s.flush(60s));
  c = s.metrics().counters;
  EXPECT_EQ(c.accepted, static_cast<uint64_t>(3 * keys));
  EXPECT_EQ(c.failure, static_cast<uint64_t>(2 * keys));

  // Back up: new updates succeed, reach the topic, and the view reads them back.
  ASSERT_TRUE(kafka_local("start 1"));
  const auto back = steady::now();
  for (int k = 0; k < keys; ++k) load.put(s, k, 4);
  ASSERT_TRUE(s.flush(60s)) << describe(s.metrics().counters);
  std::printf("updates after the restart acknowledged within %lld ms\n", ms_since(back));
  c = s.metrics().counters;
  SCOPED_TRACE(describe(c));
  expect_conservation(c);
  EXPECT_EQ(c.success, static_cast<uint64_t>(2 * keys));
  EXPECT_EQ(c.failure, static_cast<uint64_t>(2 * keys));
  const auto wrong = load.wrong_keys(config, topic);
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " key(s) without their latest status on the topic, e.g. "
                             << (wrong.empty() ? "" : wrong.front());
  const auto latest = load.expected();
  EXPECT_TRUE(eventually(
      [&] {
        for (int k = 0; k < keys / 5; ++k) {
          const auto status = s.get(load.connector_name(k));
          if (!status || encode_connector_record(*status).value != latest.at(connector_key(load.connector_name(k))))
            return false;
        }
        return true;
      },
      30s))
      << "the view did not read the statuses written after the outage";
  EXPECT_EQ(s.stop().failed, 0u);
}

TEST_F(BrokerOutage, ShutdownDuringAnOutageEndsWithinTheDrainTimeoutAndCountsWhatIsLeft) {
  const auto topic = unique_topic("shutdown-outage");
  constexpr int drain_ms = 2000;
  const auto config = this->config(topic, {{"status.storage.partitions", "3"},
                                           {"producer.message.timeout.ms", "1000"},
                                           // effectively unbounded retries: only the drain timeout ends them
                                           {"status.storage.retry.max.retries", "1000000"},
                                           {"status.storage.retry.initial.backoff.ms", "100"},
                                           {"status.storage.retry.max.backoff.ms", "500"},
                                           {"status.storage.shutdown.drain.timeout.ms", std::to_string(drain_ms)}});
  constexpr int keys = 100;
  workload load{"shutdown", keys};
  auto s = open_store(config, store_options{.jitter_seed = 4});
  for (int k = 0; k < keys; ++k) load.put(*s, k, 1);
  ASSERT_TRUE(s->flush(30s));

  ASSERT_TRUE(kafka_local("stop 1"));
  for (int k = 0; k < keys; ++k) load.put(*s, k, 2);
  std::this_thread::sleep_for(2500ms);  // some attempts time out and wait for their retry
  const auto before = s->metrics().counters;
  EXPECT_EQ(before.pending, static_cast<uint64_t>(keys)) << describe(before);
  EXPECT_GT(before.retry, 0u) << describe(before);

  const auto stopping = steady::now();
  const auto report = s->stop();
  const auto stop_ms = ms_since(stopping);
  std::printf("stop() took %lld ms with a drain timeout of %d ms; %llu update(s) counted failed\n", stop_ms, drain_ms,
              static_cast<unsigned long long>(report.failed));
  EXPECT_GE(stop_ms, drain_ms - 100) << "stop() gave up before the drain timeout while updates were pending";
  EXPECT_LE(stop_ms, drain_ms + 2000) << "stop() overran status.storage.shutdown.drain.timeout.ms";
  EXPECT_EQ(report.failed, static_cast<uint64_t>(keys));
  EXPECT_EQ(report.failed_keys.size(), static_cast<size_t>(keys));
  const auto destroying = steady::now();
  s.reset();
  EXPECT_LE(ms_since(destroying), 1000) << "destroying a stopped store must not wait again";
}
