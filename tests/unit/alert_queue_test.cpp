// The alert sender's bounded queue: oldest first, and at capacity the oldest waiting alert goes,
// counted, so the newest alerts (what is happening now) are the ones kept.
#include "actors/policy/alert_queue.hpp"

#include <gtest/gtest.h>

namespace status_store {
namespace {

alert_event alert(const std::string& connector) {
  alert_event a;
  a.connector = connector;
  a.state = status_state::failed;
  return a;
}

TEST(AlertQueue, HandsOutAlertsOldestFirst) {
  alert_queue q{3};
  EXPECT_TRUE(q.empty());
  EXPECT_FALSE(q.push(alert("a")));
  EXPECT_FALSE(q.push(alert("b")));
  EXPECT_EQ(q.size(), 2u);
  EXPECT_EQ(q.pop()->connector, "a");
  EXPECT_EQ(q.pop()->connector, "b");
  EXPECT_FALSE(q.pop().has_value());
  EXPECT_EQ(q.dropped(), 0u);
}

TEST(AlertQueue, WhenFullDropsTheOldestWaitingAndCountsIt) {
  alert_queue q{2};
  q.push(alert("a"));
  q.push(alert("b"));
  const auto dropped = q.push(alert("c"));
  ASSERT_TRUE(dropped.has_value());
  EXPECT_EQ(dropped->connector, "a");
  EXPECT_EQ(q.size(), 2u);  // never more than the capacity
  EXPECT_EQ(q.dropped(), 1u);
  EXPECT_EQ(q.push(alert("d"))->connector, "b");
  EXPECT_EQ(q.dropped(), 2u);
  EXPECT_EQ(q.pop()->connector, "c");
  EXPECT_EQ(q.pop()->connector, "d");
  EXPECT_EQ(q.dropped(), 2u);  // popping is not dropping
}

TEST(AlertQueue, ACapacityBelowOneHoldsOne) {
  alert_queue q{0};
  EXPECT_EQ(q.capacity(), 1u);
  q.push(alert("a"));
  EXPECT_EQ(q.push(alert("b"))->connector, "a");
  EXPECT_EQ(q.pop()->connector, "b");
}

TEST(AlertPostResult, OnlyNoAnswer408And429And5xxAreWorthRetrying) {
  EXPECT_TRUE((alert_post_result{200, ""}.delivered()));
  EXPECT_TRUE((alert_post_result{204, ""}.delivered()));
  EXPECT_FALSE((alert_post_result{302, ""}.delivered()));
  for (const int status : {0, 408, 429, 500, 502, 503, 504, 599})
    EXPECT_TRUE((alert_post_result{status, ""}.retriable())) << status;
  for (const int status : {200, 301, 400, 401, 403, 404, 413, 600})
    EXPECT_FALSE((alert_post_result{status, ""}.retriable())) << status;
}

}  // namespace
}  // namespace status_store
