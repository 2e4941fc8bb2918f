// The per-key rules of the write path, on the plain table alone: no actors, no Kafka, no clock. Each
// rule of actors/policy/coalescing_table.hpp has a test named after it; every test ends with the
// conservation law.
#include "coalescing_table_fixture.hpp"

#include <map>

using namespace status_store;
using namespace status_store::testing;

TEST_F(CoalescingTable, TheLatestWinsWhileAKeyIsBusy) {
  put("a", "v1");
  for (int i = 2; i <= 10; ++i) put("a", "v" + std::to_string(i));
  ASSERT_EQ(sent.size(), 2u);  // v1, and v2 chasing it
  report(sent[0], acknowledged);
  ASSERT_EQ(sent.size(), 3u);
  EXPECT_EQ(sent[2].value, "v10");
  report(sent[1], acknowledged);
  report(sent[2], acknowledged);
  auto c = check_conservation();
  EXPECT_EQ(c.coalesced, 7u);
  EXPECT_EQ(c.success, 3u);
  EXPECT_EQ(c.pending, 0u);
}

TEST_F(CoalescingTable, ARetrySendsTheLatestValueAndContinuesTheFailureEpisode) {
  put("a", "old");
  EXPECT_TRUE(report(sent[0], timed_out));
  ASSERT_EQ(scheduled.size(), 1u);
  EXPECT_EQ(scheduled[0].retry_count, 0u);
  put("a", "new");
  retry_now();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[1].value, "new");
  EXPECT_TRUE(report(sent[1], timed_out));
  ASSERT_EQ(scheduled.size(), 1u);
  EXPECT_EQ(scheduled[0].retry_count, 1u);  // not reset by the newer value
  auto c = check_conservation();
  EXPECT_EQ(c.retry, 1u);
  EXPECT_EQ(c.coalesced, 1u);
}

TEST_F(CoalescingTable, AfterMaxRetriesTheUpdateFailsAndTheNextValueStartsAnEpisodeOfItsOwn) {
  put("a", "v1");
  report(sent[0], timed_out);
  retry_now();
  report(sent[1], timed_out);
  retry_now();
  EXPECT_FALSE(report(sent[2], timed_out));  // the third attempt: max.retries (2) used up
  EXPECT_EQ(table.counters().failure, 1u);
  put("a", "v2");
  ASSERT_EQ(sent.size(), 4u);
  EXPECT_TRUE(report(sent[3], timed_out));
  ASSERT_EQ(scheduled.size(), 1u);
  EXPECT_EQ(scheduled[0].retry_count, 0u) << "a new update starts its own episode";
  retry_now();
  report(sent[4], acknowledged);
  auto c = check_conservation();
  EXPECT_EQ(c.failure, 1u);
  EXPECT_EQ(c.retry, 3u);
  EXPECT_EQ(c.success, 1u);
}

TEST_F(CoalescingTable, ANonRetriableErrorFailsAtOnceAndAuthenticationIsCountedApart) {
  put("a", "v1");
  put("b", "v1");
  EXPECT_FALSE(report(sent[0], too_large));
  EXPECT_FALSE(report(sent[1], refused_password));
  EXPECT_TRUE(scheduled.empty());
  auto c = check_conservation();
  EXPECT_EQ(c.failure, 2u);
  EXPECT_EQ(c.authentication_failure, 1u);
  EXPECT_EQ(c.retry, 0u);
}

TEST_F(CoalescingTable, PutSafeIsDroppedAtAcceptWhenAnotherWorkersNewerGenerationIsKnown) {
  read_back("t", false, "w2", 5, false);
  put("t", "mine", "w1", 4, true);
  EXPECT_TRUE(sent.empty());
  put("t", "same-worker", "w2", 3, true);    // the same worker may go back
  put("u", "nothing-known", "w1", 1, true);  // nothing known: written
  EXPECT_EQ(sent.size(), 2u);
  EXPECT_EQ(check_conservation().dropped_stale, 1u);
}

TEST_F(CoalescingTable, AWaitingPutSafeIsJudgedAgainWhenItsTurnComes) {
  put("t", "first", "w1", 4);
  put("t", "second", "w1", 4);            // chases the first
  put("t", "waiting", "w1", 4, true);     // allowed now (nothing is known), waits behind both
  read_back("t", false, "w2", 6, false);  // a new owner writes meanwhile
  report(sent[0], too_large);             // the head fails: the waiting putSafe may chase now
  EXPECT_EQ(sent.size(), 2u);             // judged against w2's generation 6: dropped
  put("t", "plain", "w1", 4);             // a plain put is always written
  EXPECT_EQ(sent.size(), 3u);
  auto c = check_conservation();
  EXPECT_EQ(c.dropped_stale, 1u);
  EXPECT_EQ(c.failure, 1u);
}

TEST_F(CoalescingTable, AStaleRetryIsAbandonedWhenAnotherWritersNewerGenerationIsKnown) {
  put("t", "mine", "w1", 5);
  report(sent[0], timed_out);
  read_back("t", false, "w2", 6, false);
  retry_now();
  EXPECT_EQ(sent.size(), 1u);
  auto c = check_conservation();
  EXPECT_EQ(c.dropped_stale, 1u);
  EXPECT_EQ(c.pending, 0u);
}

TEST_F(CoalescingTable, AnotherWritersTombstoneAbandonsAWaitingRetryButOurOwnNeverDoes) {
  put_tombstone("t");
  report(sent[0], timed_out);
  read_back("t", true, "", 0, true);  // our own copy, kept by the broker
  retry_now();
  ASSERT_EQ(sent.size(), 2u);
  report(sent[1], acknowledged);
  put("t", "again", "w1", 7);
  report(sent[2], timed_out);
  read_back("t", true, "", 0, false);  // another writer deletes the key
  retry_now();
  EXPECT_EQ(sent.size(), 3u);
  auto c = check_conservation();
  EXPECT_EQ(c.dropped_stale, 1u);
  EXPECT_EQ(c.success, 1u);
  EXPECT_EQ(c.pending, 0u);
}

TEST_F(CoalescingTable, OurOwnRecordNamingAnotherWorkerNeverMakesARetryStale) {
  put("t", "for-w2", "w2", 6);
  report(sent[0], timed_out);
  put("t", "for-w1", "w1", 5);
  read_back("t", false, "w2", 6, true);  // our own kept copy
  retry_now();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[1].value, "for-w1");
  EXPECT_EQ(check_conservation().dropped_stale, 0u);
}

TEST_F(CoalescingTable, LateReportsAndStaleRetryTicketsChangeNothing) {
  put("a", "v1");
  report(sent[0], timed_out);
  const auto stale_ticket = scheduled[0];
  retry_now();
  report(sent[0], acknowledged);  // a report for the earlier send: ignored
  EXPECT_EQ(table.counters().success, 0u);
  report(sent[1], timed_out);
  table.retry_due(stale_ticket, now);  // the earlier timer: ignored
  collect();
  EXPECT_EQ(sent.size(), 2u);
  retry_now();
  EXPECT_EQ(sent.size(), 3u);
  check_conservation();
}

TEST_F(CoalescingTable, FailingEverythingUnresolvedCountsEachUpdateOnceAndNamesItsKey) {
  put("a", "v1");
  put("a", "v2");  // chasing v1
  put("a", "v3");  // waiting
  put("b", "v1");
  report(sent[2], timed_out);
  const auto report_ = table.fail_all_unresolved();
  EXPECT_EQ(report_.failed, 4u);
  EXPECT_EQ(report_.failed_keys.size(), 2u);
  auto c = check_conservation();
  EXPECT_EQ(c.pending, 0u);
  EXPECT_EQ(c.in_flight, 0u);
  EXPECT_EQ(c.waiting_retry, 0u);
  report(sent[0], acknowledged);  // too late: changes nothing
  EXPECT_EQ(table.counters().success, 0u);
}

TEST_F(CoalescingTable, FlushWatermarksFollowResolution) {
  put("a", "v1");
  const auto mark = table.last_accept_seq();
  EXPECT_FALSE(table.resolved_through(mark));
  put("b", "v1");
  report(sent[0], acknowledged);
  EXPECT_TRUE(table.resolved_through(mark));
  EXPECT_FALSE(table.resolved_through(table.last_accept_seq()));
}

TEST_F(CoalescingTable, LatencyIsMeasuredFromThePutTimeForWrittenUpdatesOnly) {
  put("a", "v1");
  put("a", "v2");  // chases v1
  put("a", "v3");  // replaced by v4: never written, never measured
  put("a", "v4");
  now += 4'000'000;  // 4 ms
  report(sent[0], acknowledged);
  const auto timings = table.take_ack_timings();
  ASSERT_EQ(timings.size(), 1u);
  EXPECT_EQ(timings[0].put_to_ack_us, 4000u);     // v1, acknowledged 4 ms after its put
  EXPECT_TRUE(table.take_ack_timings().empty());  // each latency is reported once
  EXPECT_EQ(table.counters().coalesced, 1u);
}

// ---- outage hold ------------------------------------------------------------------------------------

TEST_F(CoalescingTable, OutageHoldWritesEachKeyOnceWithItsLatestValueWhenABrokerIsBack) {
  put("a", "a1");
  put("b", "b1");
  ASSERT_EQ(sent.size(), 2u);
  table.hold();
  // The producer purges its queue: both attempts come back not sent and are held, not retried.
  EXPECT_FALSE(report(sent[0], purged_for_hold));
  EXPECT_FALSE(report(sent[1], purged_for_hold));
  put("a", "a2");
  put("a", "a3");  // replaces a2 in the table
  put("c", "c1");  // a new key while holding: held at once
  EXPECT_EQ(sent.size(), 2u) << "nothing reaches the producer while no broker is reachable";
  EXPECT_EQ(table.held(), 3u);
  EXPECT_EQ(table.counters().held, 3u);  // the status-update-held gauge
  EXPECT_TRUE(scheduled.empty());
  EXPECT_EQ(table.counters().in_flight, 0u);
  table.release(now);
  collect();
  ASSERT_EQ(sent.size(), 5u);
  std::map<std::string, std::string> released;
  for (size_t i = 2; i < sent.size(); ++i) released[sent[i].key] = sent[i].value;
  EXPECT_EQ(released, (std::map<std::string, std::string>{{"a", "a3"}, {"b", "b1"}, {"c", "c1"}}));
  EXPECT_EQ(table.held(), 0u);
  for (size_t i = 2; i < sent.size(); ++i) report(sent[i], acknowledged);
  const auto c = check_conservation();
  EXPECT_EQ(c.success, 3u);
  EXPECT_EQ(c.coalesced, 2u);  // a2 (replaced in the table) and a1 (held, never written)
  EXPECT_EQ(c.retry, 0u) << "a purge for the hold is not an attempt's end";
  EXPECT_EQ(c.pending, 0u);
}

TEST_F(CoalescingTable, OutageHoldEndsAHeldAttemptAfterTheAttemptTimeoutAndCountsRetriesByTheKipsRules) {
  table.hold();
  put("a", "a1");  // held at once, attempt started now
  now += attempt_timeout - 1;
  table.expire_held(now, attempt_timeout);
  collect();
  EXPECT_TRUE(scheduled.empty()) << "the attempt has not timed out yet";
  now += 1;
  table.expire_held(now, attempt_timeout);
  collect();
  ASSERT_EQ(scheduled.size(), 1u);  // retry 1 of 2, after its backoff
  EXPECT_EQ(table.held(), 0u);
  retry_now();  // still no broker: the retry is held too, and counted as a retry
  EXPECT_EQ(table.held(), 1u);
  EXPECT_EQ(table.counters().retry, 1u);
  now += attempt_timeout;
  table.expire_held(now, attempt_timeout);
  collect();
  retry_now();  // retry 2 of 2
  now += attempt_timeout;
  table.expire_held(now, attempt_timeout);
  collect();
  EXPECT_TRUE(sent.empty());
  const auto c = check_conservation();
  EXPECT_EQ(c.retry, 2u);
  EXPECT_EQ(c.failure, 1u) << "a full outage ends in counted failures, never a hang";
  EXPECT_EQ(table.held(), 0u);
}

TEST_F(CoalescingTable, OutageHoldAPurgeReportAfterTheReleaseSendsTheLatestValueAtOnceAndOnce) {
  put("a", "a1");
  table.hold();
  put("a", "a2");
  table.release(now);  // a broker came back before the purge report of a1 was served
  EXPECT_FALSE(report(sent[0], purged_for_hold));
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[1].value, "a2") << "a1 never reached a broker: the latest goes instead, once";
  report(sent[1], acknowledged);
  EXPECT_EQ(sent.size(), 2u);
  const auto c = check_conservation();
  EXPECT_EQ(c.success, 1u);
  EXPECT_EQ(c.coalesced, 1u);
  EXPECT_EQ(c.retry, 0u);
}

TEST_F(CoalescingTable, OutageHoldAWaitingPutSafeIsDecidedAgainWhenReleased) {
  put("a", "a1", "w1", 1);
  table.hold();
  report(sent[0], purged_for_hold);
  put("a", "a2", "w1", 1, /*safe=*/true);
  read_back("a", false, "w2", 5, /*own=*/false);  // another worker took the task meanwhile
  table.release(now);
  collect();
  ASSERT_EQ(sent.size(), 1u) << "the waiting putSafe is stale now: nothing is written";
  const auto c = check_conservation();
  EXPECT_EQ(c.dropped_stale, 1u);
  EXPECT_EQ(c.coalesced, 1u);
  EXPECT_EQ(c.pending, 0u);
}

TEST_F(CoalescingTable, OutageHoldTheDrainDeadlineFailsHeldUpdates) {
  table.hold();
  put("a", "a1");
  put("a", "a2");
  const auto report = table.fail_all_unresolved();
  EXPECT_EQ(report.failed, 2u);
  EXPECT_EQ(table.held(), 0u);
  check_conservation();
}
