// The per-key pipeline of the coalescing table alone (actors/policy/coalescing_table_pipeline.cpp): a
// second record of a key in flight, chasing the first, and what each report then means. Every test
// ends with the conservation law.
#include "coalescing_table_fixture.hpp"

#include <map>

using namespace status_store;
using namespace status_store::testing;

TEST_F(CoalescingTable, TwoRecordsPerKeyInFlightTheNewestChasingTheHead) {
  put("a", "a1");
  put("b", "b1");
  put("a", "a2");  // chases a1: sent at once
  put("a", "a3");  // both slots taken: waits
  put("a", "a4");  // replaces a3
  ASSERT_EQ(sent.size(), 3u);
  EXPECT_EQ(sent[2].value, "a2");
  EXPECT_EQ(table.counters().in_flight, 3u);
  report(sent[0], acknowledged);  // a2 is the head now, a4 chases it
  ASSERT_EQ(sent.size(), 4u);
  EXPECT_EQ(sent[3].value, "a4");
  report(sent[2], acknowledged);
  report(sent[3], acknowledged);
  expect_counts({.success = 3, .coalesced = 1, .pending = 1});  // b1 still in flight
}

TEST_F(CoalescingTable, AFailedHeadANewerValueChasesIsNeverSentAgain) {
  put("a", "v1");
  put("a", "v2");
  EXPECT_FALSE(report(sent[0], timed_out)) << "v2 is on its way: no retry of v1";
  EXPECT_TRUE(scheduled.empty());
  EXPECT_EQ(table.counters().coalesced, 1u);
  EXPECT_TRUE(report(sent[1], timed_out)) << "v2 is the key's attempt now: retried";
  ASSERT_EQ(scheduled.size(), 1u);
  EXPECT_EQ(scheduled[0].retry_count, 0u) << "v2's own first failure";
  retry_now();
  ASSERT_EQ(sent.size(), 3u);
  EXPECT_EQ(sent[2].value, "v2");
  report(sent[2], acknowledged);
  expect_counts({.success = 1, .retry = 1, .pending = 0});
}

TEST_F(CoalescingTable, AHeadThatFailsForGoodDoesNotStopTheValueChasingIt) {
  put("a", "too-big");
  put("a", "fine");
  EXPECT_FALSE(report(sent[0], too_large));
  report(sent[1], acknowledged);
  EXPECT_EQ(sent.size(), 2u);
  expect_counts({.success = 1, .failure = 1});
}

TEST_F(CoalescingTable, AReportOfTheChaserBeforeTheHeadsOwnIsHonoured) {
  put("a", "v1", "w1", 1);
  put("a", "v2", "w1", 2);
  put("a", "v3", "w1", 3);        // waits
  report(sent[1], acknowledged);  // v2 first: v1 is overtaken, v3 chases
  ASSERT_EQ(sent.size(), 3u);
  EXPECT_EQ(sent[2].value, "v3");
  EXPECT_FALSE(report(sent[0], timed_out)) << "a newer value is written: v1 is not retried";
  EXPECT_TRUE(scheduled.empty());
  report(sent[2], acknowledged);
  expect_counts({.success = 2, .coalesced = 1, .pending = 0});
}

TEST_F(CoalescingTable, AChaserThatFailsWaitsBehindTheHeadAndIsNotSentAgainAtOnce) {
  put("a", "v1");
  put("a", "v2");
  EXPECT_FALSE(report(sent[1], timed_out));  // v2 before v1: it waits again
  EXPECT_TRUE(scheduled.empty());
  EXPECT_EQ(sent.size(), 2u);
  report(sent[0], acknowledged);  // v1 resolved: v2 goes next
  ASSERT_EQ(sent.size(), 3u);
  EXPECT_EQ(sent[2].value, "v2");
  report(sent[2], acknowledged);
  expect_counts({.success = 2, .pending = 0});
}

TEST_F(CoalescingTable, APutSafeTheHeadWouldMakeStaleWaitsInsteadOfChasing) {
  put("t", "new-owner", "w2", 6);        // a plain put for the task's new owner
  put("t", "old-owner", "w1", 4, true);  // allowed by what is known, not by the head
  EXPECT_EQ(sent.size(), 1u);
  report(sent[0], acknowledged);  // w2's generation 6 is known now: the putSafe is stale
  EXPECT_EQ(sent.size(), 1u);
  expect_counts({.dropped_stale = 1, .pending = 0});
}

TEST_F(CoalescingTable, OutageHoldTakesBackAHeadAndItsChaserAndWritesTheLatestOnce) {
  put("a", "a1");
  put("a", "a2");  // chases a1
  table.hold();
  put("a", "a3");  // nothing chases while no broker is reachable: waits
  EXPECT_EQ(sent.size(), 2u);
  report(sent[0], purged_for_hold);  // a1 overtaken: coalesced, a2 is the head
  report(sent[1], purged_for_hold);  // a2 held
  EXPECT_EQ(table.held(), 1u);
  EXPECT_EQ(table.counters().in_flight, 0u);
  table.release(now);
  collect();
  ASSERT_EQ(sent.size(), 3u);
  EXPECT_EQ(sent[2].value, "a3");
  report(sent[2], acknowledged);
  expect_counts({.success = 1, .coalesced = 2, .retry = 0, .pending = 0});
}

TEST_F(CoalescingTable, EverySendThatEndsInARetriableErrorIsAnAttemptErrorWhateverFollows) {
  // status-update-attempt-error-total: an overtaken head's time-out shows there, though it is
  // counted as coalesced and never retried; a non-retriable end and an acknowledgement do not.
  put("a", "v1");
  put("a", "v2");
  report(sent[0], timed_out);
  report(sent[1], acknowledged);
  EXPECT_EQ(table.counters().attempt_errors, 1u);
  EXPECT_EQ(table.counters().retry, 0u);
  put("b", "too-big");
  report(sent[2], too_large);
  put("c", "v1");
  report(sent[3], timed_out);  // a head alone: retried
  retry_now();
  report(sent[4], acknowledged);
  EXPECT_EQ(table.counters().attempt_errors, 2u);
  expect_counts({.success = 2, .failure = 1, .coalesced = 1, .retry = 1, .pending = 0});
}
