// The ingest table alone: latest wins per key, replacements counted, the wake-up protocol's answers,
// put order kept across keys, the oldest taken first from a storm larger than a batch, and close().
#include "actors/ingest/ingest_table.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

using namespace status_store;
using offer_result = ingest_table::offer_result;

namespace {

status_update update(std::string key, std::string value) {
  return status_update{std::move(key), false, std::move(value), false, "w1", 1, 0};
}

std::vector<std::string> keys_of(const ingest_table::batch& b) {
  std::vector<std::string> keys;
  for (const auto& u : b.updates) keys.push_back(u.key);
  return keys;
}

}  // namespace

TEST(IngestTable, TheFirstOfferIntoAnIdleTableAsksForTheOnlyWakeUp) {
  ingest_table t;
  EXPECT_EQ(t.offer(update("a", "1")), offer_result::wake_needed);
  EXPECT_EQ(t.offer(update("b", "1")), offer_result::waiting);
  EXPECT_EQ(t.offer(update("a", "2")), offer_result::waiting);
  auto b = t.take(100);
  EXPECT_FALSE(b.more);
  EXPECT_EQ(b.replaced, 1u);
  ASSERT_EQ(b.updates.size(), 2u);
  EXPECT_EQ(t.offer(update("c", "1")), offer_result::wake_needed);  // served: idle again
}

TEST(IngestTable, TheNewestUpdateOfAKeyWinsAndTakesItsPlaceInPutOrder) {
  ingest_table t;
  t.offer(update("a", "1"));
  t.offer(update("b", "1"));
  t.offer(update("c", "1"));
  t.offer(update("a", "2"));  // a's last put is now the newest
  auto b = t.take(100);
  EXPECT_EQ(keys_of(b), (std::vector<std::string>{"b", "c", "a"}));
  EXPECT_EQ(b.updates.back().value, "2");
  EXPECT_EQ(b.updates.back().key, "a");  // the key is moved back into the update
}

TEST(IngestTable, AStormLargerThanABatchIsTakenOldestFirstAndTheWakeUpStaysOutstanding) {
  ingest_table t;
  for (int i = 0; i < 10; ++i) t.offer(update("k" + std::to_string(i), "v"));
  auto first = t.take(4);
  EXPECT_TRUE(first.more);
  EXPECT_EQ(keys_of(first), (std::vector<std::string>{"k0", "k1", "k2", "k3"}));
  EXPECT_EQ(t.offer(update("late", "v")), offer_result::waiting);  // still outstanding
  auto rest = t.take(100);
  EXPECT_FALSE(rest.more);
  EXPECT_EQ(rest.updates.size(), 7u);
  EXPECT_EQ(rest.updates.back().key, "late");
  EXPECT_EQ(t.waiting(), 0u);
}

TEST(IngestTable, AStormsBacklogGoesOutOldestFirstBeforeLaterPutsAndCountsAsWaiting) {
  ingest_table t;
  for (int i = 0; i < 10; ++i) t.offer(update("k" + std::to_string(i), "v"));
  EXPECT_EQ(keys_of(t.take(4)), (std::vector<std::string>{"k0", "k1", "k2", "k3"}));
  EXPECT_EQ(t.waiting(), 6u);      // the rest of the storm, taken out of the table, still waits
  t.offer(update("k1", "again"));  // k1 was handed out already: a new put
  t.offer(update("k9", "newer"));  // k9 is in the backlog: the newer value follows it, never before
  t.offer(update("new", "v"));
  EXPECT_EQ(t.waiting(), 9u);
  auto second = t.take(4);
  EXPECT_TRUE(second.more);
  EXPECT_EQ(keys_of(second), (std::vector<std::string>{"k4", "k5", "k6", "k7"}));
  auto last = t.take(100);
  EXPECT_FALSE(last.more);
  EXPECT_EQ(keys_of(last), (std::vector<std::string>{"k8", "k9", "k1", "k9", "new"}));
  EXPECT_EQ(last.updates[1].value, "v");
  EXPECT_EQ(last.updates[3].value, "newer");
  EXPECT_EQ(t.waiting(), 0u);
  EXPECT_EQ(t.taken(), 13u);
  EXPECT_EQ(t.offer(update("after", "v")), offer_result::wake_needed);  // the last take ended the wake-up
}

TEST(IngestTable, ATakeForAFlushLeavesTheWakeUpOutstanding) {
  ingest_table t;
  EXPECT_EQ(t.offer(update("a", "1")), offer_result::wake_needed);
  EXPECT_EQ(t.take(100, false).updates.size(), 1u);
  EXPECT_EQ(t.offer(update("b", "1")), offer_result::waiting);  // the wake message is still on its way
  EXPECT_EQ(t.take(100, true).updates.size(), 1u);              // ... and serves b
  EXPECT_EQ(t.offer(update("c", "1")), offer_result::wake_needed);
}

TEST(IngestTable, AfterCloseEveryOfferIsRefusedAndWhatWaitedCanStillBeTaken) {
  ingest_table t;
  t.offer(update("a", "1"));
  t.close();
  EXPECT_EQ(t.offer(update("b", "1")), offer_result::refused);
  EXPECT_EQ(t.offer_all({update("c", "1")}), offer_result::refused);
  EXPECT_EQ(keys_of(t.take(100)), std::vector<std::string>{"a"});
}

TEST(IngestTable, EveryRefusedUpdateIsCountedOnce) {
  ingest_table t;
  t.offer(update("a", "1"));
  EXPECT_EQ(t.refused(), 0u);
  t.close();
  t.offer(update("b", "1"));
  t.offer_copy(update("c", "1"));
  t.offer_all({update("d", "1"), update("e", "1"), update("d", "2")});
  EXPECT_EQ(t.refused(), 5u);
  EXPECT_EQ(t.waiting(), 1u);  // none of them queued
}

TEST(IngestTable, TakenCountsWhatTheCoalescerGotReplacedUpdatesIncluded) {
  ingest_table t;
  t.offer_all({update("a", "1"), update("b", "1"), update("a", "2")});  // one replaced
  EXPECT_EQ(t.taken(), 0u);
  EXPECT_EQ(t.take(1).updates.size(), 1u);  // a storm take: the oldest one, and the replacement count
  EXPECT_EQ(t.taken(), 2u);
  t.offer(update("c", "1"));
  t.take(100);
  EXPECT_EQ(t.taken(), 4u);  // as the coalescer's accepted counter: 2 updates + 1 replaced + 1
}

TEST(IngestTable, OfferAllQueuesInOrderUnderOneLock) {
  ingest_table t;
  EXPECT_EQ(t.offer_all({update("a", "1"), update("b", "1"), update("a", "2")}), offer_result::wake_needed);
  auto b = t.take(100);
  EXPECT_EQ(keys_of(b), (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(b.replaced, 1u);
}

TEST(IngestTable, ConcurrentCallersLoseNothingAndAskForOneWakeUpPerIdlePeriod) {
  ingest_table t;
  std::atomic<int> wakes{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&, c] {
      for (int i = 0; i < 10000; ++i)
        if (t.offer(update("k" + std::to_string(c * 100 + i % 100), std::to_string(i))) == offer_result::wake_needed)
          ++wakes;
    });
  for (auto& c : callers) c.join();
  EXPECT_EQ(wakes.load(), 1);  // nobody served the table meanwhile
  auto b = t.take(1000);
  EXPECT_EQ(b.updates.size(), 400u);
  EXPECT_EQ(b.replaced + b.updates.size(), 40000u);
  for (const auto& u : b.updates) EXPECT_GE(std::stoi(u.value), 9900) << u.key;  // each key's last put
}

TEST(IngestTable, OfferCopyQueuesAndReplacesExactlyAsOfferDoes) {
  // The same offers, by value and by copy (the facade's path, which overwrites a waiting entry in
  // place): the same answers, the same batch, the same replacement count.
  ingest_table by_value;
  ingest_table by_copy;
  const std::vector<status_update> offers{update("a", "first value of a, longer than the next"), update("b", "1"),
                                          update("a", "2"), status_update{"c", true, "", true, "w2", 7, 42},
                                          update("c", "back from a tombstone")};
  for (const auto& u : offers) EXPECT_EQ(by_copy.offer_copy(u), by_value.offer(u));
  auto copied = by_copy.take(100);
  auto valued = by_value.take(100);
  EXPECT_EQ(copied.updates, valued.updates);
  EXPECT_EQ(copied.replaced, 2u);
  EXPECT_EQ(copied.replaced, valued.replaced);
  ASSERT_EQ(copied.updates.size(), 3u);
  EXPECT_EQ(copied.updates[1].key, "a");
  EXPECT_EQ(copied.updates[1].value, "2");
  by_copy.close();
  EXPECT_EQ(by_copy.offer_copy(update("d", "1")), offer_result::refused);
}

TEST(IngestTable, OfferCopiesQueuesAndReplacesExactlyAsOfferAllDoes) {
  ingest_table by_value;
  ingest_table by_copy;
  const std::vector<status_update> offers{update("a", "first value of a, longer than the next"), update("b", "1"),
                                          update("a", "2"), status_update{"c", true, "", true, "w2", 7, 42}};
  EXPECT_EQ(by_copy.offer_copies(offers), offer_result::wake_needed);
  EXPECT_EQ(by_value.offer_all(offers), offer_result::wake_needed);
  EXPECT_EQ(by_copy.offer_copies(std::vector<status_update>{update("c", "back")}), offer_result::waiting);
  EXPECT_EQ(by_value.offer_all({update("c", "back")}), offer_result::waiting);
  auto copied = by_copy.take(100);
  auto valued = by_value.take(100);
  EXPECT_EQ(copied.updates, valued.updates);
  EXPECT_EQ(copied.replaced, 2u);
  EXPECT_EQ(copied.replaced, valued.replaced);
  EXPECT_EQ(keys_of(copied), (std::vector<std::string>{"b", "a", "c"}));
  by_copy.close();
  EXPECT_EQ(by_copy.offer_copies(offers), offer_result::refused);
  EXPECT_EQ(by_copy.refused(), offers.size());
}

TEST(IngestTable, AKeptEntryHoldsNothingOfTheUpdateItCarriedBefore) {
  // A taken entry is kept for the next new key, its strings' capacity intact: every field of the
  // next update must be its own, by copy and by value, and the taken update must be whole.
  ingest_table t;
  const status_update first{"status-task-a-long-connector-name-0",
                            false,
                            std::string(300, 'v'),
                            true,
                            "a-long-worker-id.example.com:8083",
                            7,
                            5};
  const status_update second{"b", true, "", false, "", 0, 9};
  const status_update third{"c", false, "{}", true, "w", -1, 11};
  t.offer_copy(first);
  EXPECT_EQ(t.take(10).updates, std::vector<status_update>{first});
  t.offer_copy(second);
  EXPECT_EQ(t.take(10).updates, std::vector<status_update>{second});
  t.offer(third);
  EXPECT_EQ(t.take(10).updates, std::vector<status_update>{third});
  t.offer_copy(first);
  t.offer(status_update{second});
  EXPECT_EQ(t.take(10).updates, (std::vector<status_update>{first, second}));
}

TEST(IngestTable, KeptEntriesServeAsManyKeysAsEverWaitedAndStillKeepPutOrder) {
  // More keys than are kept, taken and put again in another order: nothing lost, nothing reordered.
  ingest_table t;
  const size_t n = ingest_table::kept_entries + 100;
  for (size_t i = 0; i < n; ++i) t.offer(update("k" + std::to_string(i), "1"));
  EXPECT_EQ(t.take(n).updates.size(), n);
  for (size_t i = n; i-- > 0;) t.offer_copy(update("k" + std::to_string(i), "2"));
  const auto b = t.take(n);
  ASSERT_EQ(b.updates.size(), n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(b.updates[i].key, "k" + std::to_string(n - 1 - i));
    EXPECT_EQ(b.updates[i].value, "2");
  }
}
