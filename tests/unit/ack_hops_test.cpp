// Where an acknowledged update's time went: the split into hops (actors/policy/ack_hops.hpp) alone,
// then through the per-key table (each acknowledged head's instants), and the table's ack listener.
#include "actors/policy/ack_hops.hpp"
#include "actors/policy/coalescing_table.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>

#include <tuple>

using namespace status_store;

namespace {
uint64_t sum_of_hops(const ack_timing& t) {
  return t.ingest_wait_us + t.key_wait_us + t.to_producer_us + t.producer_queue_us + t.report_to_coalescer_us;
}
}  // namespace

TEST(AckHops, EachHopIsTheTimeBetweenItsTwoInstants) {
  const auto t = ack_hops(ack_instants{.put_ns = 1'000'000,
                                       .accepted_ns = 1'100'000,
                                       .handed_on_ns = 1'350'000,
                                       .reported_ns = 6'350'000,
                                       .queue_us = 4800,
                                       .handled_ns = 6'400'000});
  EXPECT_EQ(t, (ack_timing{.put_to_ack_us = 5400,
                           .ingest_wait_us = 100,
                           .key_wait_us = 250,
                           .to_producer_us = 200,  // produced at 6.35 ms - 4.8 ms
                           .producer_queue_us = 4800,
                           .report_to_coalescer_us = 50}));
  EXPECT_EQ(sum_of_hops(t), t.put_to_ack_us);
}

TEST(AckHops, InstantsOutOfOrderAreClampedSoNoHopIsNegativeAndTheyStillAddUp) {
  // Another thread's clock read a little behind, and a queue time longer than the handed-on gap.
  const auto t = ack_hops(ack_instants{.put_ns = 2'000'000,
                                       .accepted_ns = 1'999'000,
                                       .handed_on_ns = 2'500'000,
                                       .reported_ns = 2'400'000,
                                       .queue_us = 900'000,
                                       .handled_ns = 3'000'000});
  EXPECT_EQ(t.ingest_wait_us, 0u);
  EXPECT_EQ(t.key_wait_us, 500u);
  EXPECT_EQ(t.to_producer_us, 0u);
  EXPECT_EQ(t.producer_queue_us, 0u);
  EXPECT_EQ(t.report_to_coalescer_us, 500u);
  EXPECT_EQ(t.put_to_ack_us, 1000u);
  EXPECT_EQ(sum_of_hops(t), t.put_to_ack_us);
}

TEST(AckHops, AnUnknownReportGivesTheProducersHopAllOfTheTimeAfterHandingOn) {
  const auto t =
      ack_hops(ack_instants{.put_ns = 0, .accepted_ns = 0, .handed_on_ns = 1'000'000, .handled_ns = 4'000'000});
  EXPECT_EQ(t.to_producer_us, 0u);
  EXPECT_EQ(t.producer_queue_us, 3000u);
  EXPECT_EQ(t.report_to_coalescer_us, 0u);
  EXPECT_EQ(t.put_to_ack_us, 4000u);
}

namespace {
struct TableHops : ::testing::Test {
  coalescing_table table{2, std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::null_sink_mt>())};
  std::vector<outgoing_record> sent;
  int64_t now = 1'000'000'000;

  void put(std::string value, int32_t generation, int64_t put_ns = 0) {
    status_update u{"a", false, std::move(value), false, "w1", generation, put_ns};
    table.accept(u, now);
    collect();
  }
  void ack(const outgoing_record& r, int64_t reported_ns = 0, int64_t queue_us = -1) {
    table.delivered(attempt_report{.key = r.key,
                                   .send_id = r.send_id,
                                   .end = attempt_end::acknowledged,
                                   .reported_ns = reported_ns,
                                   .queue_us = queue_us},
                    now);
    collect();
  }
  void collect() {
    for (auto& r : table.take_sends()) sent.push_back(std::move(r));
  }
};
}  // namespace

TEST_F(TableHops, AnAcknowledgedHeadIsTimedFromItsPutThroughEveryHop) {
  const int64_t start = now;
  put("v1", 1, start - 300'000);  // put 300 µs before the table took it; the key is idle: handed on at once
  now += 1'000'000;
  put("v2", 2);  // chases v1: handed on at once too
  put("v3", 3);  // waits behind both
  now += 4'000'000;
  ack(sent[0], now - 200'000, 4000);  // 4 ms inside the Kafka client, reported 200 µs ago; v3 chases v2 now
  now += 3'000'000;
  ack(sent[1]);  // no report times: the producer's hop takes all of it
  ack(sent[2]);
  const auto t = table.take_ack_timings();
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0], (ack_timing{.put_to_ack_us = 5300,
                              .ingest_wait_us = 300,
                              .key_wait_us = 0,
                              .to_producer_us = 800,
                              .producer_queue_us = 4000,
                              .report_to_coalescer_us = 200}));
  EXPECT_EQ(t[1], (ack_timing{.put_to_ack_us = 7000,
                              .ingest_wait_us = 0,
                              .key_wait_us = 0,  // a second record of the key in flight: no wait
                              .to_producer_us = 0,
                              .producer_queue_us = 7000,
                              .report_to_coalescer_us = 0}));
  EXPECT_EQ(t[2], (ack_timing{.put_to_ack_us = 7000,
                              .ingest_wait_us = 0,
                              .key_wait_us = 4000,  // behind v1's and v2's records in flight
                              .to_producer_us = 0,
                              .producer_queue_us = 3000,
                              .report_to_coalescer_us = 0}));
  EXPECT_TRUE(table.take_ack_timings().empty());
}

TEST_F(TableHops, TheAckListenerHearsEveryAcknowledgedRecordWithItsGenerationAndReportTime) {
  std::vector<std::tuple<std::string, int32_t, int64_t>> heard;
  table.listen_to_acks(
      [&](std::string_view key, int32_t generation, int64_t at) { heard.emplace_back(key, generation, at); });
  put("v1", 7);
  put("v2", 8);  // behind v1
  put("v3", 9);  // replaces v2: never written, never heard
  now += 1000;
  ack(sent[0], now - 10);
  table.delivered(attempt_report{.key = "a", .send_id = sent[1].send_id, .end = attempt_end::retriable}, now);
  EXPECT_EQ(heard, (std::vector<std::tuple<std::string, int32_t, int64_t>>{{"a", 7, now - 10}}))
      << "a failed attempt is not an acknowledgement";
}
