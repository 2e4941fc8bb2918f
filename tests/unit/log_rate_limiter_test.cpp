// log_rate_limiter on a fake clock (plain nanosecond values): per reason, the first lines of a window
// are written, the rest counted, and each window with held-back lines closes with one summary, either
// when its reason comes back after the window or when a timer asks for what is due.
#include "actors/policy/log_rate_limiter.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace status_store;

namespace {

constexpr int64_t second = 1'000'000'000;
using summary = log_rate_limiter::summary;

log_rate_limiter limiter(uint32_t lines = 3, int64_t interval = 10 * second, std::size_t reasons = 64) {
  return log_rate_limiter{log_rate_limiter::limits{lines, interval, reasons}};
}

/// How many of `n` lines of `reason`, one per `step` from `from`, are written.
int written(log_rate_limiter& l, std::string_view reason, int n, int64_t from, int64_t step = 0) {
  int count = 0;
  for (int i = 0; i < n; ++i) count += l.admit(reason, from + i * step).write ? 1 : 0;
  return count;
}

}  // namespace

TEST(LogRateLimiter, WritesTheFirstLinesOfAWindowAndCountsTheRest) {
  auto l = limiter();
  EXPECT_EQ(written(l, "bad json", 1000, 0), 3);
  EXPECT_TRUE(l.take_due(10 * second - 1).empty()) << "the window has not passed";
  EXPECT_EQ(l.take_due(10 * second), (std::vector<summary>{{"bad json", 997, 10 * second}}));
  EXPECT_TRUE(l.take_due(20 * second).empty()) << "a summary is given once";
}

TEST(LogRateLimiter, EachReasonHasItsOwnBudget) {
  auto l = limiter();
  EXPECT_EQ(written(l, "bad json", 10, 0), 3);
  EXPECT_EQ(written(l, "unknown state", 10, second), 3);
  EXPECT_EQ(written(l, "bad json", 10, 2 * second), 0);
  // Oldest window first, each over its own time.
  EXPECT_EQ(l.take_due(11 * second),
            (std::vector<summary>{{"bad json", 17, 11 * second}, {"unknown state", 7, 10 * second}}));
}

TEST(LogRateLimiter, ALineAfterTheWindowClosesItWithItsSummaryAndIsWritten) {
  auto l = limiter();
  EXPECT_EQ(written(l, "r", 5, 0), 3);
  const auto late = l.admit("r", 25 * second);  // no timer ran: the summary comes with this line
  EXPECT_TRUE(late.write);
  ASSERT_TRUE(late.closed.has_value());
  EXPECT_EQ(*late.closed, (summary{"r", 2, 25 * second}));
  EXPECT_EQ(written(l, "r", 5, 25 * second), 2) << "a new window: 3 lines, this one's first already written";
}

TEST(LogRateLimiter, AWindowWithNothingHeldBackEndsWithoutASummary) {
  auto l = limiter();
  EXPECT_EQ(written(l, "r", 3, 0), 3);
  EXPECT_EQ(l.next_due(), std::nullopt);
  EXPECT_TRUE(l.take_due(60 * second).empty());
  const auto again = l.admit("r", 60 * second);
  EXPECT_TRUE(again.write);
  EXPECT_FALSE(again.closed.has_value());
}

TEST(LogRateLimiter, NextDueIsTheEndOfTheFirstWindowThatHeldALineBack) {
  auto l = limiter();
  EXPECT_EQ(written(l, "a", 3, 0), 3);           // opens at 0, nothing held back
  EXPECT_EQ(written(l, "b", 4, 2 * second), 3);  // opens at 2 s, one held back
  EXPECT_EQ(written(l, "c", 4, 1 * second), 3);  // opens at 1 s, one held back
  EXPECT_EQ(l.next_due(), 11 * second);
  EXPECT_EQ(l.take_due(11 * second).size(), 1u);
  EXPECT_EQ(l.next_due(), 12 * second);
  EXPECT_EQ(l.take_due(12 * second).size(), 1u);
  EXPECT_EQ(l.next_due(), std::nullopt);
}

TEST(LogRateLimiter, ASteadyTrickleBelowTheBudgetIsWrittenWhole) {
  auto l = limiter();
  EXPECT_EQ(written(l, "r", 100, 0, 4 * second), 100) << "one line per 4 s: at most 3 per 10 s window";
  EXPECT_EQ(l.next_due(), std::nullopt);
}

TEST(LogRateLimiter, ReasonsBeyondTheBoundShareOneBudget) {
  auto l = limiter(1, 10 * second, 2);
  EXPECT_EQ(written(l, "a", 1, 0), 1);
  EXPECT_EQ(written(l, "b", 1, 0), 1);
  int more = 0;
  for (int i = 0; i < 50; ++i) more += l.admit("unbounded " + std::to_string(i), 0).write ? 1 : 0;
  EXPECT_EQ(more, 1) << "50 new reasons: one line, as the reason 'other'";
  EXPECT_EQ(l.take_due(10 * second), (std::vector<summary>{{"other", 49, 10 * second}}));
}

TEST(LogRateLimiter, NoLineIsWrittenWithABudgetOfZero) {
  auto l = limiter(0);
  EXPECT_EQ(written(l, "r", 7, 0), 0);
  EXPECT_EQ(l.take_due(10 * second), (std::vector<summary>{{"r", 7, 10 * second}}));
}
