// The threads of one librdkafka client, known from its interceptors, lowered together and later ones
// too (the status reader's consumer: docs/architecture.md, "The read side's threads").
#include "actors/kafka/client_threads.hpp"
#include "actors/threads/thread_priority.hpp"
#include "tests/eventually.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

using namespace status_store;

namespace {

bool all_at(const client_threads& threads, int nice) {
  const auto ids = threads.ids();
  return std::all_of(ids.begin(), ids.end(), [&](int id) { return thread_nice(id) == nice; });
}

}  // namespace

TEST(ClientThreads, AClientsThreadsAreLoweredOnceAndThoseItStartsLaterToo) {
  const int base = this_thread_nice();
  const int lowered = std::min(base + 5, 19);
  ASSERT_LT(base, lowered) << "this test needs a thread priority that can still be lowered";
  client_threads threads;
  char error[256];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  threads.install(conf);
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);  // no broker: never connects
  ASSERT_NE(rk, nullptr) << error;
  ASSERT_TRUE(test_support::eventually([&] { return !threads.ids().empty(); }, std::chrono::seconds{5}))
      << "its main thread at least";
  EXPECT_TRUE(all_at(threads, base));

  EXPECT_EQ(threads.lower_priority(5), "");
  EXPECT_TRUE(all_at(threads, lowered));
  EXPECT_EQ(threads.lower_priority(5), "");  // once: no second step
  EXPECT_TRUE(all_at(threads, lowered));
  EXPECT_EQ(this_thread_nice(), base);

  const auto running = threads.ids().size();
  ASSERT_EQ(rd_kafka_brokers_add(rk, "127.0.0.1:1"), 1);  // a broker thread starts, after the call
  ASSERT_TRUE(test_support::eventually([&] { return threads.ids().size() > running; }, std::chrono::seconds{5}));
  EXPECT_TRUE(all_at(threads, lowered));

  rd_kafka_destroy(rk);
  EXPECT_TRUE(threads.ids().empty()) << "each thread leaves the list before it ends";
}

TEST(ClientThreads, NoIncrementLowersNothing) {
  client_threads threads;
  EXPECT_EQ(threads.lower_priority(0), "");
  EXPECT_EQ(threads.lower_priority(-3), "");
  EXPECT_TRUE(threads.ids().empty());
}
