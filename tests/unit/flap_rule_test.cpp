// The flap rule on virtual time: which transitions count, the threshold within the window at its
// boundaries, staying flapping until stable for a window, tombstones, and the memory bound.
#include "actors/policy/flap_rule.hpp"

#include <gtest/gtest.h>

namespace status_store {
namespace {

using change = flap_rule::change;
constexpr auto running = status_state::running;
constexpr auto failed = status_state::failed;
constexpr int64_t minute = 60'000;

flap_rule rule(uint32_t threshold = 3, int64_t window_ms = 10 * minute) {
  return flap_rule{flap_rule::limits{threshold, window_ms}};
}

/// Drives `key` RUNNING → FAILED `times` times, one failure every `every_ms` from `start_ms`; returns
/// the change of the last failure.
change fail_repeatedly(flap_rule& r, const std::string& key, int times, int64_t start_ms, int64_t every_ms) {
  change last = change::none;
  for (int i = 0; i < times; ++i) {
    const int64_t at = start_ms + i * every_ms;
    EXPECT_EQ(r.observe(key, failed, running, at - 1), change::none);
    last = r.observe(key, running, failed, at);
  }
  return last;
}

TEST(FlapRule, WhatCountsAsUnstable) {
  EXPECT_TRUE(is_unstable_transition(running, failed));
  EXPECT_TRUE(is_unstable_transition(std::nullopt, failed));
  EXPECT_TRUE(is_unstable_transition(status_state::unassigned, failed));
  EXPECT_TRUE(is_unstable_transition(running, status_state::restarting));
  EXPECT_FALSE(is_unstable_transition(failed, failed));  // the same status written again
  EXPECT_FALSE(is_unstable_transition(failed, running));
  EXPECT_FALSE(is_unstable_transition(std::nullopt, running));
  // Commands and rebalances, not failures: a rolling restart must not mark every task flapping.
  for (auto next : {status_state::paused, status_state::stopped, status_state::unassigned, status_state::destroyed})
    EXPECT_FALSE(is_unstable_transition(running, next));
}

TEST(FlapRule, WhatEntersAndLeavesFailed) {
  EXPECT_TRUE(is_failed_entry(running, failed));
  EXPECT_TRUE(is_failed_entry(std::nullopt, failed));  // a key's first record
  EXPECT_FALSE(is_failed_entry(failed, failed));       // written again: no second entry
  EXPECT_FALSE(is_failed_entry(failed, running));
  EXPECT_TRUE(is_failed_exit(failed, running));
  EXPECT_TRUE(is_failed_exit(failed, status_state::unassigned));
  EXPECT_FALSE(is_failed_exit(failed, failed));
  EXPECT_FALSE(is_failed_exit(std::nullopt, running));
  EXPECT_FALSE(is_failed_exit(running, status_state::paused));
}

TEST(FlapRule, TheThresholdWithinTheWindowStartsFlapping) {
  auto r = rule();
  EXPECT_EQ(fail_repeatedly(r, "task-0", 2, 0, minute), change::none);
  EXPECT_FALSE(r.flapping("task-0"));
  EXPECT_EQ(r.observe("task-0", running, failed, 2 * minute), change::started);
  EXPECT_TRUE(r.flapping("task-0"));
  EXPECT_EQ(r.flapping_count(), 1u);
  EXPECT_EQ(r.observe("task-0", running, failed, 3 * minute), change::none);  // already flapping
}

TEST(FlapRule, FailuresAWindowApartDoNotFlap) {
  auto r = rule();
  // The third failure 10 min after the first: the first has left the window (not 1 ms earlier: below).
  EXPECT_EQ(fail_repeatedly(r, "a", 3, 0, 5 * minute), change::none);
  EXPECT_EQ(r.flapping_count(), 0u);
  auto s = rule();
  EXPECT_EQ(s.observe("b", running, failed, 0), change::none);
  EXPECT_EQ(s.observe("b", running, failed, 5 * minute), change::none);
  EXPECT_EQ(s.observe("b", running, failed, 10 * minute - 1), change::started);
}

TEST(FlapRule, StaysFlappingUntilStableForAWindow) {
  auto r = rule();
  ASSERT_EQ(fail_repeatedly(r, "k", 3, 0, minute), change::started);  // last failure at 2 min
  EXPECT_EQ(r.next_due(), 12 * minute);
  EXPECT_EQ(r.take_recovered(12 * minute - 1), std::vector<std::string>{});
  EXPECT_TRUE(r.flapping("k"));
  EXPECT_EQ(r.observe("k", failed, running, 12 * minute - 1), change::none);  // recovering is not stable yet
  EXPECT_EQ(r.take_recovered(12 * minute), std::vector<std::string>{"k"});
  EXPECT_FALSE(r.flapping("k"));
  EXPECT_EQ(r.flapping_count(), 0u);
  EXPECT_EQ(r.next_due(), std::nullopt);
}

TEST(FlapRule, AFailureWhileFlappingRestartsTheStableWindow) {
  auto r = rule();
  ASSERT_EQ(fail_repeatedly(r, "k", 3, 0, minute), change::started);
  EXPECT_EQ(r.observe("k", running, failed, 11 * minute), change::none);
  EXPECT_EQ(r.take_recovered(12 * minute), std::vector<std::string>{});
  EXPECT_EQ(r.next_due(), 21 * minute);
  // A record after a stable window stops it as the timer would.
  EXPECT_EQ(r.observe("k", failed, running, 21 * minute), change::stopped);
  EXPECT_EQ(r.flapping_count(), 0u);
}

TEST(FlapRule, ATombstoneForgetsTheKey) {
  auto r = rule();
  ASSERT_EQ(fail_repeatedly(r, "k", 3, 0, minute), change::started);
  r.forget("k");
  EXPECT_FALSE(r.flapping("k"));
  EXPECT_EQ(r.flapping_count(), 0u);
  EXPECT_EQ(r.tracked_keys(), 0u);
  EXPECT_EQ(r.observe("k", running, failed, 3 * minute), change::none);  // counts from zero again
}

TEST(FlapRule, MemoryIsBoundedByKeysAndThreshold) {
  auto r = rule(2, minute);
  for (int64_t t = 0; t < 100'000; ++t) r.observe("one", running, failed, t);
  EXPECT_EQ(r.tracked_keys(), 1u);
  for (int i = 0; i < 1'000; ++i) r.observe("stable-" + std::to_string(i), std::nullopt, running, 0);
  EXPECT_EQ(r.tracked_keys(), 1u);  // keys that never became unstable cost nothing
  r.observe("once", running, failed, 100'000);
  EXPECT_EQ(r.take_recovered(100'000 + minute), (std::vector<std::string>{"one"}));
  EXPECT_EQ(r.tracked_keys(), 0u);  // "once" had nothing left to count after a stable window
}

TEST(FlapRule, ATimeThatGoesBackStaysInTheWindow) {
  auto r = rule();
  EXPECT_EQ(r.observe("k", running, failed, 5 * minute), change::none);
  EXPECT_EQ(r.observe("k", running, failed, 4 * minute), change::none);  // a writer's clock behind
  EXPECT_EQ(r.observe("k", running, failed, 6 * minute), change::started);
  EXPECT_EQ(r.next_due(), 16 * minute);
}

}  // namespace
}  // namespace status_store
