// The store's read side (the status view's own thread, its reader and the consumer's librdkafka
// threads) follows the topic below the write path's priority once the replay is complete; the write
// path's threads keep theirs (docs/architecture.md, "The read side's threads").
#include "actors/threads/thread_priority.hpp"
#include "mock_store.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace status_store;

namespace {

struct task {
  std::string name;  // /proc/self/task/<tid>/comm: librdkafka names its threads "rdk:main", "rdk:broker…"
  int nice = 0;
};

/// Every thread of this process, from /proc (the nice value is field 19 of each task's stat; the
/// command name before it, in parentheses, may hold spaces).
std::vector<task> every_thread() {
  std::vector<task> out;
  for (const auto& entry : std::filesystem::directory_iterator{"/proc/self/task"}) {
    std::ifstream in{entry.path() / "stat"};
    std::string stat{std::istreambuf_iterator<char>{in}, {}};
    const auto open = stat.find('('), close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    task t{stat.substr(open + 1, close - open - 1), 0};
    std::istringstream fields{stat.substr(close + 2)};
    std::string field;
    for (int i = 3; i <= 19 && fields >> field; ++i)
      if (i == 19) t.nice = std::stoi(field);
    out.push_back(std::move(t));
  }
  return out;
}

long count(const std::vector<task>& tasks, int nice, const std::string& name_prefix = "") {
  return std::count_if(tasks.begin(), tasks.end(),
                       [&](const task& t) { return t.nice == nice && t.name.rfind(name_prefix, 0) == 0; });
}

std::string describe(const std::vector<task>& tasks) {
  std::map<std::string, std::string> by_name;
  for (const auto& t : tasks) by_name[t.name] += " " + std::to_string(t.nice);
  std::string out;
  for (const auto& [name, nice] : by_name) out += name + ":" + nice + ";";
  return out;
}

}  // namespace

TEST(ViewThreadOnMockCluster, AfterTheReplayTheReadSideFollowsBelowTheWritePathAndWritesStillLand) {
  const int base = this_thread_nice();
  const int lowered = std::min(base + 10, 19);
  ASSERT_LT(base, lowered) << "this test needs a thread priority that can still be lowered";
  store s{integration::mock_config("view-thread-status")};  // returns once the replay is complete
  // The reader lowers its threads before its next poll (at most 100 ms after the replay).
  ASSERT_TRUE(integration::eventually([&] { return count(every_thread(), lowered, "rdk:main") == 1; }))
      << describe(every_thread());
  const auto tasks = every_thread();
  SCOPED_TRACE(describe(tasks));  // "name: nice nice ...;" per thread name, if an expectation fails
  EXPECT_EQ(count(tasks, lowered, "status-reader"), 1);
  EXPECT_GE(count(tasks, lowered, "caf.actor"), 1) << "the view, an actor detached on a thread of its own";
  // librdkafka clients in this process: the mock cluster's, the store's producer and its consumer
  // (one "rdk:main" each); only the consumer's follows below, with its broker threads.
  EXPECT_GE(count(tasks, base, "rdk:main"), 2) << "the producer's and the mock cluster's";
  EXPECT_GE(count(tasks, lowered, "rdk:broker"), 1);
  EXPECT_EQ(count(tasks, lowered, "caf.multiplexer") + count(tasks, lowered, "caf.clock"), 0)
      << "the actor system's workers and clock serve the write path";
  EXPECT_EQ(count(tasks, lowered),
            count(tasks, lowered, "status-reader") + count(tasks, lowered, "caf.actor") + count(tasks, lowered, "rdk:"))
      << "nothing else follows below";
  EXPECT_EQ(count(tasks, lowered) + count(tasks, base), static_cast<long>(tasks.size())) << "no third priority";
  EXPECT_EQ(this_thread_nice(), base);

  s.put(connector_status{"c", status_value{status_state::running, std::nullopt, "w:8083", 1}});
  ASSERT_TRUE(s.flush(std::chrono::seconds{20}));
  ASSERT_TRUE(integration::eventually([&] { return s.get("c").has_value(); }));  // read back by the lowered threads
  EXPECT_EQ(s.get("c")->value.generation, 1);
}
