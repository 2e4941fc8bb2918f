// An event stream's queue (app/rest/event_stream_queue.hpp): what a stream may hold before it is
// dropped, counted over what waits and what is being written; an empty queue takes one batch of any
// size; order kept.
#include "app/rest/event_stream_queue.hpp"

#include <gtest/gtest.h>

using namespace status_store;

namespace {

event_stream_queue::frames bytes(size_t n, char c = 'x') { return std::make_shared<const std::string>(n, c); }

}  // namespace

TEST(EventStreamQueue, TakesWhatFitsAndRefusesWhatWouldPassTheBound) {
  event_stream_queue q{100};
  EXPECT_TRUE(q.push(bytes(60)));
  EXPECT_TRUE(q.push(bytes(40)));  // exactly the bound
  EXPECT_EQ(q.bytes(), 100u);
  EXPECT_FALSE(q.push(bytes(1)));  // one byte more: refused, nothing queued
  EXPECT_EQ(q.bytes(), 100u);
  const auto taken = q.take();
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(taken[0]->size(), 60u);  // oldest first
  EXPECT_TRUE(q.empty());
}

TEST(EventStreamQueue, WhatIsBeingWrittenCountsUntilWritten) {
  event_stream_queue q{100};
  EXPECT_TRUE(q.push(bytes(80)));
  q.take();  // being written
  EXPECT_EQ(q.bytes(), 80u);
  EXPECT_TRUE(q.push(bytes(50)));   // nothing waits: taken although 80 + 50 > 100
  EXPECT_FALSE(q.push(bytes(10)));  // something waits: 80 + 50 + 10 > 100
  q.written();
  EXPECT_EQ(q.bytes(), 50u);
  EXPECT_TRUE(q.push(bytes(50)));
  EXPECT_EQ(q.take().size(), 2u);
}

TEST(EventStreamQueue, AnEmptyQueueTakesOneBatchOfAnySizeSoAStreamThatKeepsUpSurvivesABurst) {
  event_stream_queue q{100};
  EXPECT_TRUE(q.push(bytes(5000)));
  EXPECT_FALSE(q.push(bytes(1)));
  q.take();
  q.written();
  EXPECT_EQ(q.bytes(), 0u);
  EXPECT_TRUE(q.push(bytes(1)));
}

TEST(EventStreamQueue, ASlowReaderIsRefusedAtTheBoundAfterAnyNumberOfSmallBatches) {
  event_stream_queue q{1000};
  int taken = 0;
  while (q.push(bytes(30))) ++taken;
  EXPECT_EQ(taken, 33);  // 33 * 30 = 990 <= 1000 < 34 * 30
  EXPECT_LE(q.bytes(), 1000u);
  EXPECT_TRUE(q.push(nullptr));  // nothing to queue is never a reason to drop a stream
  EXPECT_TRUE(q.push(bytes(0)));
  EXPECT_EQ(q.take().size(), 33u);
}
