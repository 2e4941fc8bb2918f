// The status view runs on a thread of its own in the store, and follows the topic below the write
// path's priority once the replay is complete (docs/architecture.md, "The view's thread").
#include "actors/threads/thread_priority.hpp"
#include "mock_store.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace status_store;

namespace {

/// The nice value of every thread of this process, from /proc (field 19 of each task's stat; the
/// command name before it, in parentheses, may hold spaces).
std::vector<int> nice_of_every_thread() {
  std::vector<int> out;
  for (const auto& task : std::filesystem::directory_iterator{"/proc/self/task"}) {
    std::ifstream in{task.path() / "stat"};
    std::string stat{std::istreambuf_iterator<char>{in}, {}};
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields{stat.substr(close + 2)};
    std::string field;
    for (int i = 3; i <= 19 && fields >> field; ++i)
      if (i == 19) out.push_back(std::stoi(field));
  }
  return out;
}

}  // namespace

TEST(ViewThreadOnMockCluster, AfterTheReplayOneThreadFollowsBelowTheOthersAndWritesStillLand) {
  const int base = this_thread_nice();
  const int lowered = std::min(base + 10, 19);
  ASSERT_LT(base, lowered) << "this test needs a thread priority that can still be lowered";
  store s{integration::mock_config("view-thread-status")};  // returns once the replay is complete
  const auto nice = nice_of_every_thread();
  EXPECT_EQ(std::count(nice.begin(), nice.end(), lowered), 1) << "the view's own thread, and only it";
  EXPECT_EQ(std::count(nice.begin(), nice.end(), base), static_cast<long>(nice.size()) - 1);
  EXPECT_EQ(this_thread_nice(), base);

  s.put(connector_status{"c", status_value{status_state::running, std::nullopt, "w:8083", 1}});
  ASSERT_TRUE(s.flush(std::chrono::seconds{20}));
  ASSERT_TRUE(integration::eventually([&] { return s.get("c").has_value(); }));  // read back by the lowered thread
  EXPECT_EQ(s.get("c")->value.generation, 1);
}
