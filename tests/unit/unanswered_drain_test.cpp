// What stop() counts as failed when the coalescer does not answer the drain: from the last metrics
// snapshot and the ingest table, never less than what was lost (app/store/unanswered_drain.hpp).
#include "app/store/unanswered_drain.hpp"

#include <gtest/gtest.h>

using namespace status_store;

namespace {

store_counters counters(uint64_t accepted, uint64_t success, uint64_t pending) {
  store_counters c;
  c.accepted = accepted;
  c.success = success;
  c.pending = pending;
  c.in_flight = pending;
  c.oldest_unacked_since_ns = pending > 0 ? 5 : -1;
  return c;
}

}  // namespace

TEST(UnansweredDrain, PendingInTheCoalescerAndWaitingInTheIngestBothCount) {
  // 100 taken and published, 40 of them acknowledged; 7 more never taken.
  const auto loss = unanswered_drain_loss_of(counters(100, 40, 60), 100, 7);
  EXPECT_EQ(loss.pending, 60u);
  EXPECT_EQ(loss.unpublished, 0u);
  EXPECT_EQ(loss.waiting, 7u);
  EXPECT_EQ(loss.total(), 67u);
}

TEST(UnansweredDrain, UpdatesTakenAfterTheLastPublishedCountersCountToo) {
  // The coalescer took 30 more, then died before its tick published them: in neither gauge.
  EXPECT_EQ(unanswered_drain_loss_of(counters(100, 40, 60), 130, 0).total(), 90u);
}

TEST(UnansweredDrain, WithNoSnapshotEveryUpdateEverTakenCountsAsAnUpperBound) {
  EXPECT_EQ(unanswered_drain_loss_of(store_counters{}, 130, 2).total(), 132u);
}

TEST(UnansweredDrain, UpdatesSentStraightToTheCoalescerNeverMakeTheGapNegative) {
  // 50 of the accepted came as put messages, not through the ingest table.
  EXPECT_EQ(unanswered_drain_loss_of(counters(150, 100, 50), 100, 0).total(), 50u);
}

TEST(UnansweredDrain, TheFinalSnapshotCountsTheLossFailedAndKeepsTheConservationLaw) {
  metrics_snapshot s;
  s.counters = counters(100, 40, 60);
  s.oldest_unacked_age_ms = 1234;
  const auto loss = unanswered_drain_loss_of(s.counters, 130, 7);
  count_as_failed(s, loss);
  const auto& c = s.counters;
  EXPECT_EQ(c.failure, 97u);
  EXPECT_EQ(c.accepted, 137u);  // what the facade's callers put, as far as it can tell
  EXPECT_EQ(c.pending, 0u);
  EXPECT_EQ(c.in_flight, 0u);
  EXPECT_EQ(c.oldest_unacked_since_ns, -1);
  EXPECT_EQ(s.oldest_unacked_age_ms, 0);
  EXPECT_EQ(c.accepted, c.success + c.failure + c.coalesced + c.dropped_stale + c.pending);
}
