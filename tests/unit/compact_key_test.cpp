#include "actors/policy/compact_key.hpp"

#include <gtest/gtest.h>

#include <string>
#include <unordered_map>

using namespace status_store;

TEST(CompactKey, HoldsItsBytesIncludingEmbeddedNulsAndTheEmptyString) {
  const std::string with_nul{"status-task-a\0b-0", 17};
  EXPECT_EQ(compact_key{with_nul}.view(), with_nul);
  EXPECT_EQ(compact_key{""}.view(), "");
  EXPECT_EQ(sizeof(compact_key), sizeof(void*));
}

TEST(CompactKey, MovesOwnership) {
  compact_key a{"status-connector-a"};
  compact_key b{std::move(a)};
  EXPECT_EQ(b.view(), "status-connector-a");
  EXPECT_EQ(a.view(), "");  // NOLINT(bugprone-use-after-move): a moved-from key is empty
  compact_key c{"status-connector-c"};
  c = std::move(b);
  EXPECT_EQ(c.view(), "status-connector-a");
}

TEST(CompactKey, MapsAreSearchedWithAStringViewAndKeepDistinctKeysApart) {
  std::unordered_map<compact_key, int, compact_key_hash, compact_key_equal> map;
  for (int i = 0; i < 1000; ++i) map.emplace(compact_key{"status-connector-" + std::to_string(i)}, i);
  for (int i = 0; i < 1000; ++i) {
    const std::string key = "status-connector-" + std::to_string(i);
    auto it = map.find(std::string_view{key});
    ASSERT_NE(it, map.end()) << key;
    EXPECT_EQ(it->second, i);
    EXPECT_EQ(it->first.view(), key);
  }
  EXPECT_EQ(map.find(std::string_view{"status-connector-1000"}), map.end());
  EXPECT_EQ(map.find(std::string_view{"status-connector-"}), map.end());
  map.erase(map.find(std::string_view{"status-connector-7"}));
  EXPECT_EQ(map.size(), 999u);
  EXPECT_EQ(map.find(std::string_view{"status-connector-7"}), map.end());
}
