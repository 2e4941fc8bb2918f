// The calling thread's priority, lowered for that thread alone (the status view's own thread follows
// the topic this way: docs/architecture.md, "The view's thread").
#include "actors/threads/thread_priority.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

using namespace status_store;

TEST(ThreadPriority, LoweringItChangesTheCallingThreadOnlyAndIsClampedAtNineteen) {
  const int before = this_thread_nice();
  int inside = 0, inside_again = 0;
  std::string refused, refused_again;
  std::thread t{[&] {
    refused = lower_this_thread_priority(10);
    inside = this_thread_nice();
    refused_again = lower_this_thread_priority(100);  // beyond the range: the kernel clamps it
    inside_again = this_thread_nice();
  }};
  t.join();
  EXPECT_EQ(refused, "");
  EXPECT_EQ(inside, std::min(before + 10, 19));
  EXPECT_EQ(refused_again, "");
  EXPECT_EQ(inside_again, 19);
  EXPECT_EQ(this_thread_nice(), before);  // the caller's thread kept its own
}

TEST(ThreadPriority, NoIncrementChangesNothing) {
  const int before = this_thread_nice();
  EXPECT_EQ(lower_this_thread_priority(0), "");
  EXPECT_EQ(lower_this_thread_priority(-5), "");  // raising a priority is not what this is for
  EXPECT_EQ(this_thread_nice(), before);
}
