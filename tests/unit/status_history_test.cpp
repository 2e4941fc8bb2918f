// The history ring: what counts as a transition, the per-key and total caps (oldest first, whichever
// key), tombstones, how far back it reaches, and a trace's first line.
#include "actors/policy/status_history.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace status_store {
namespace {

status_transition at(status_state state, int64_t ms, std::string worker = "w1", int32_t generation = 1) {
  status_transition t;
  t.state = state;
  t.worker_id = std::move(worker);
  t.generation = generation;
  t.timestamp_ms = ms;
  return t;
}

std::vector<int64_t> times(const std::vector<status_transition>& ts) {
  std::vector<int64_t> out;
  for (const auto& t : ts) out.push_back(t.timestamp_ms);
  return out;
}

TEST(StatusHistory, KeepsTransitionsNotRepeats) {
  status_history h{{}};
  EXPECT_TRUE(h.record("task-a-0", at(status_state::running, 1)));
  EXPECT_FALSE(h.record("task-a-0", at(status_state::running, 2)));          // the same status again
  EXPECT_TRUE(h.record("task-a-0", at(status_state::running, 3, "w2")));     // moved to another worker
  EXPECT_TRUE(h.record("task-a-0", at(status_state::running, 4, "w2", 2)));  // a new generation
  EXPECT_TRUE(h.record("task-a-0", at(status_state::failed, 5, "w2", 2)));
  EXPECT_EQ(times(h.of("task-a-0")), (std::vector<int64_t>{1, 3, 4, 5}));
  EXPECT_EQ(h.of("task-a-0").back().state, status_state::failed);
  EXPECT_TRUE(h.of("unknown").empty());
}

TEST(StatusHistory, PerKeyCapDropsTheOldest) {
  status_history h{{3, 100}};
  for (int i = 0; i < 10; ++i) h.record("k", at(i % 2 ? status_state::failed : status_state::running, i));
  EXPECT_EQ(times(h.of("k")), (std::vector<int64_t>{7, 8, 9}));
  EXPECT_EQ(h.transitions(), 3u);
}

TEST(StatusHistory, TotalCapDropsTheOldestOfAnyKey) {
  status_history h{{16, 10}};
  for (int i = 0; i < 6; ++i) h.record("old", at(i % 2 ? status_state::failed : status_state::running, i));
  for (int i = 0; i < 5; ++i) h.record("new-" + std::to_string(i), at(status_state::running, 100 + i));
  // 11 > 10: down to 9, the two oldest (both of "old") gone.
  EXPECT_EQ(h.transitions(), 9u);
  EXPECT_EQ(times(h.of("old")), (std::vector<int64_t>{2, 3, 4, 5}));
  for (int i = 0; i < 20; ++i) h.record("new-" + std::to_string(i % 5), at(status_state::failed, 200 + i));
  EXPECT_LE(h.transitions(), 10u);
  EXPECT_TRUE(h.of("old").empty());  // every one older than what the new keys wrote
  EXPECT_EQ(h.keys(), 5u);           // a key whose history went entirely is not kept empty
}

TEST(StatusHistory, AKeyThatLostItsOldestToTheTotalCapGrowsBackInOrder) {
  // The total cap takes a key's oldest before the key reached its own cap: its later transitions
  // fill that room first, then grow it, oldest first throughout; then the per-key cap wraps it.
  status_history h{{8, 6}};
  const auto state = [](int i) { return i % 2 ? status_state::failed : status_state::running; };
  for (int i = 0; i < 3; ++i) h.record("k", at(state(i), i));
  for (const char* other : {"a", "b", "c", "d"}) h.record(other, at(status_state::running, 50));  // 7 > 6: k's 0 goes
  EXPECT_EQ(times(h.of("k")), (std::vector<int64_t>{1, 2}));
  for (const char* other : {"a", "b", "c", "d"}) h.erase(other);
  for (int i = 3; i < 7; ++i) h.record("k", at(state(i), i));
  EXPECT_EQ(times(h.of("k")), (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
  h.erase("k");
  status_history small{{3, 100}};
  for (int i = 0; i < 3; ++i) small.record("k", at(state(i), i));
  for (const char* other : {"a", "b"}) small.record(other, at(status_state::running, 50));
  for (int i = 3; i < 5; ++i) small.record("k", at(state(i), i));
  EXPECT_EQ(times(small.of("k")), (std::vector<int64_t>{2, 3, 4}));
}

TEST(StatusHistory, EachKeysLastChangeIsItsNewestTransition) {
  status_history h{{}};
  EXPECT_TRUE(h.last_changes().empty());
  h.record("task-b-0", at(status_state::running, 5));
  h.record("task-a-0", at(status_state::running, 1));
  h.record("task-a-0", at(status_state::failed, 3));
  h.record("task-a-0", at(status_state::failed, 9));  // a repeat: not a change
  EXPECT_EQ(h.last_changes(), (std::vector<key_change>{{"task-a-0", 3}, {"task-b-0", 5}}));
  h.erase("task-a-0");
  EXPECT_EQ(h.last_changes(), (std::vector<key_change>{{"task-b-0", 5}}));
}

TEST(StatusHistory, LastChangesAreInKeyOrderWhateverTheOrderOfTheRecords) {
  status_history h{{}};
  for (int i = 999; i >= 0; --i) h.record("task-c-" + std::to_string(i), at(status_state::running, i));
  const auto changes = h.last_changes();
  ASSERT_EQ(changes.size(), 1000u);
  EXPECT_TRUE(std::is_sorted(changes.begin(), changes.end(),
                             [](const key_change& a, const key_change& b) { return a.key < b.key; }));
  EXPECT_EQ(changes.front(), (key_change{"task-c-0", 0}));
  EXPECT_EQ(changes.back(), (key_change{"task-c-999", 999}));
}

TEST(StatusHistory, ATombstoneErasesTheKeysHistory) {
  status_history h{{}};
  h.record("a", at(status_state::running, 1));
  h.record("a", at(status_state::failed, 2));
  h.record("b", at(status_state::running, 3));
  h.erase("a");
  EXPECT_TRUE(h.of("a").empty());
  EXPECT_EQ(h.transitions(), 1u);
  EXPECT_EQ(h.keys(), 1u);
  EXPECT_TRUE(h.record("a", at(status_state::running, 4)));  // a re-created connector starts afresh
  EXPECT_EQ(times(h.of("a")), std::vector<int64_t>{4});
}

TEST(StatusHistory, ReachesBackToTheOldestKept) {
  status_history h{{2, 100}};
  EXPECT_EQ(h.reaches_back_to(), std::nullopt);
  h.record("a", at(status_state::running, 50));
  h.record("b", at(status_state::running, 40));
  h.record("b", at(status_state::failed, 60));
  EXPECT_EQ(h.reaches_back_to(), 40);
  h.record("b", at(status_state::running, 70));  // b's 40 goes with the per-key cap
  EXPECT_EQ(h.reaches_back_to(), 50);
}

TEST(StatusHistory, TheTracesFirstLine) {
  EXPECT_EQ(first_line_of("org.apache.kafka.connect.errors.ConnectException: boom\n\tat X.y(X.java:1)"),
            "org.apache.kafka.connect.errors.ConnectException: boom");
  EXPECT_EQ(first_line_of("one\r\ntwo"), "one");
  EXPECT_EQ(first_line_of(""), "");
  EXPECT_EQ(first_line_of("abcdef", 4), "abcd");
  EXPECT_EQ(first_line_of("ab\xC3\xA9", 3), "ab");  // é is not split
  EXPECT_EQ(first_line_of("ab\xF0\x9F\x98\x80z", 5), "ab");
}

TEST(StatusHistory, ZeroCapsKeepNothing) {
  status_history h{{0, 10}};
  EXPECT_FALSE(h.record("a", at(status_state::running, 1)));
  EXPECT_EQ(h.keys(), 0u);
}

}  // namespace
}  // namespace status_store
