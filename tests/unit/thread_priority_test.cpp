// A thread's priority, lowered for that thread alone (the store's read side follows the topic this
// way: docs/architecture.md, "The read side's threads").
#include "actors/threads/thread_priority.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <future>
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

TEST(ThreadPriority, AnotherThreadIsLoweredByItsIdAndTheCallerKeepsItsOwn) {
  const int before = this_thread_nice();
  std::promise<int> id;
  std::promise<void> release;
  std::thread t{[&] {
    id.set_value(this_thread_id());
    release.get_future().wait();
  }};
  const int tid = id.get_future().get();
  EXPECT_NE(tid, this_thread_id());
  EXPECT_EQ(lower_thread_priority(tid, 5), "");
  EXPECT_EQ(thread_nice(tid), std::min(before + 5, 19));
  EXPECT_EQ(this_thread_nice(), before);
  release.set_value();
  t.join();
}

TEST(ThreadPriority, AThreadThatCannotExistIsRefusedInTheSystemsWords) {
  EXPECT_EQ(lower_thread_priority(0, 5), "no such thread");  // 0 would be the calling thread
  EXPECT_EQ(lower_thread_priority(-1, 5), "no such thread");
  // Above Linux's largest pid_max (2^22), so no thread anywhere has it.
  EXPECT_EQ(lower_thread_priority(1 << 30, 5), "No such process");
  EXPECT_EQ(thread_nice(1 << 30), 0);
}
