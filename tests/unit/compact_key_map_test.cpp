#include "actors/policy/compact_key_map.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <string>

using namespace status_store;

namespace {
std::string map_test_key(int i) { return "status-task-connector-" + std::to_string(i % 97) + "-" + std::to_string(i); }
}  // namespace

TEST(CompactKeyMap, FindsWhatWasInsertedAndNothingElse) {
  compact_key_map<int> map;
  EXPECT_EQ(map.find("a"), nullptr);  // empty: no slots yet
  EXPECT_FALSE(map.erase("a"));
  for (int i = 0; i < 5000; ++i) {
    auto [value, inserted] = map.try_emplace(map_test_key(i));
    ASSERT_TRUE(inserted);
    EXPECT_EQ(*value, 0);  // default-constructed
    *value = i;
  }
  EXPECT_EQ(map.size(), 5000u);
  for (int i = 0; i < 5000; ++i) {
    const int* value = map.find(map_test_key(i));
    ASSERT_NE(value, nullptr) << i;
    EXPECT_EQ(*value, i);
  }
  EXPECT_EQ(map.find(map_test_key(5000)), nullptr);
  EXPECT_EQ(map.find("status-task-connector-"), nullptr);
  auto [again, inserted] = map.try_emplace(map_test_key(42));
  EXPECT_FALSE(inserted);
  EXPECT_EQ(*again, 42);
  EXPECT_EQ(map.size(), 5000u);
}

TEST(CompactKeyMap, KeysWithEmbeddedNulsAndTheEmptyKeyAreDistinct) {
  compact_key_map<int> map;
  const std::string with_nul{"status-task-a\0b-0", 17};
  const std::string cut{"status-task-a"};
  *map.try_emplace(with_nul).first = 1;
  *map.try_emplace(cut).first = 2;
  *map.try_emplace("").first = 3;
  EXPECT_EQ(*map.find(with_nul), 1);
  EXPECT_EQ(*map.find(cut), 2);
  EXPECT_EQ(*map.find(""), 3);
  std::map<std::string, int> seen;
  map.for_each([&](std::string_view key, int& value) { seen.emplace(std::string{key}, value); });
  EXPECT_EQ(seen, (std::map<std::string, int>{{"", 3}, {cut, 2}, {with_nul, 1}}));
}

TEST(CompactKeyMap, ValuesStayPutWhenTheTableGrows) {
  compact_key_map<std::string> map;
  std::string* first = map.try_emplace("status-connector-first").first;
  *first = "value";
  for (int i = 0; i < 10000; ++i) map.try_emplace(map_test_key(i));
  EXPECT_EQ(map.find("status-connector-first"), first);
  EXPECT_EQ(*first, "value");
}

// Erasing shifts later entries of a probe run back; a random mix of inserts and erases, checked
// against std::map after every step, covers runs that wrap around the end of the slot array.
TEST(CompactKeyMap, InsertsAndErasesAgreeWithAnOrderedMap) {
  std::mt19937 random{20261205};
  for (const int key_space : {8, 20, 200, 3000}) {
    compact_key_map<int> map;
    std::map<std::string, int> expected;
    for (int step = 0; step < 20000; ++step) {
      const std::string key = "k" + std::to_string(random() % key_space);
      if (random() % 3 == 0) {
        EXPECT_EQ(map.erase(key), expected.erase(key) == 1) << key;
      } else {
        *map.try_emplace(key).first = step;
        expected[key] = step;
      }
      ASSERT_EQ(map.size(), expected.size());
      if (step % 97 != 0) continue;
      for (int k = 0; k < key_space; ++k) {
        const std::string probe = "k" + std::to_string(k);
        const auto it = expected.find(probe);
        const int* found = map.find(probe);
        if (it == expected.end()) {
          ASSERT_EQ(found, nullptr) << probe << " at step " << step;
        } else {
          ASSERT_NE(found, nullptr) << probe << " at step " << step;
          ASSERT_EQ(*found, it->second);
        }
      }
    }
  }
}

TEST(CompactKeyMap, ForEachVisitsEveryEntryOnceAndMayChangeValues) {
  compact_key_map<int> map;
  for (int i = 0; i < 300; ++i) *map.try_emplace(map_test_key(i)).first = i;
  std::map<std::string, int> seen;
  map.for_each([&](std::string_view key, int& value) {
    EXPECT_TRUE(seen.emplace(std::string{key}, value).second) << key;
    value = -1;
  });
  EXPECT_EQ(seen.size(), 300u);
  for (int i = 0; i < 300; ++i) EXPECT_EQ(seen[map_test_key(i)], i);
  EXPECT_EQ(*map.find(map_test_key(7)), -1);
}

TEST(CompactKeyMap, DestroysEveryValueOnEraseClearAndDestruction) {
  auto counted = std::make_shared<int>(0);
  {
    compact_key_map<std::shared_ptr<int>> map;
    for (int i = 0; i < 100; ++i) *map.try_emplace(map_test_key(i)).first = counted;
    EXPECT_EQ(counted.use_count(), 101);
    map.erase(map_test_key(3));
    EXPECT_EQ(counted.use_count(), 100);
    map.clear();
    EXPECT_EQ(counted.use_count(), 1);
    EXPECT_EQ(map.size(), 0u);
    EXPECT_EQ(map.find(map_test_key(4)), nullptr);
    for (int i = 0; i < 10; ++i) *map.try_emplace(map_test_key(i)).first = counted;
    compact_key_map<std::shared_ptr<int>> moved{std::move(map)};
    EXPECT_EQ(moved.size(), 10u);
    EXPECT_EQ(map.size(), 0u);  // NOLINT(bugprone-use-after-move): a moved-from map is empty
    EXPECT_EQ(counted.use_count(), 11);
  }
  EXPECT_EQ(counted.use_count(), 1);
}
