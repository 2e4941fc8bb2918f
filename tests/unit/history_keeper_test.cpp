// The view's history keeper: history, flapping since when, and FAILED counts per connector, kept and
// erased together.
#include "actors/policy/history_keeper.hpp"

#include <gtest/gtest.h>

using namespace status_store;

namespace {
status_value keeper_value(status_state state) { return status_value{state, std::nullopt, "w1", 1}; }
const status_key_ref connector_c{"status-connector-c", "c", std::nullopt};
const status_key_ref task_c0{"status-task-c-0", "c", 0};
}  // namespace

TEST(HistoryKeeper, CountsEntriesIntoFailedOfTheConnectorAndItsTasksNotRepeats) {
  history_keeper k{{16, 100}, {3, 1000}};
  k.applied(connector_c, std::nullopt, keeper_value(status_state::failed), 1, false);
  k.applied(task_c0, std::nullopt, keeper_value(status_state::running), 2, false);
  k.applied(task_c0, status_state::running, keeper_value(status_state::failed), 3, false);
  k.applied(task_c0, status_state::failed, keeper_value(status_state::failed), 4, false);  // a repeat
  EXPECT_EQ(k.failed_transitions("c"), 2u);
  EXPECT_EQ(k.failed_transitions("other"), 0u);
  k.erased_connector("c");
  EXPECT_EQ(k.failed_transitions("c"), 0u);
}

TEST(HistoryKeeper, TellsSinceWhenAKeyFlapsUntilItRecovers) {
  history_keeper k{{16, 100}, {2, 1000}};
  EXPECT_EQ(k.applied(task_c0, std::nullopt, keeper_value(status_state::failed), 100, false), flap_rule::change::none);
  k.applied(task_c0, status_state::failed, keeper_value(status_state::running), 200, false);
  // The record that makes it flap says so: the view alerts on it.
  EXPECT_EQ(k.applied(task_c0, status_state::running, keeper_value(status_state::failed), 300, true),
            flap_rule::change::started);
  ASSERT_EQ(k.flapping().size(), 1u);
  EXPECT_EQ(k.flapping()[0], (flapping_key{"c", true, 0, 300}));
  EXPECT_EQ(k.next_due(), 1300);
  EXPECT_TRUE(k.take_recovered(1299).empty());
  // What recovers comes back with what it was, so the view can name it in an alert.
  EXPECT_EQ(k.take_recovered(1300), (std::vector<flapping_key>{{"c", true, 0, 300}}));
  EXPECT_TRUE(k.flapping().empty());
  EXPECT_EQ(k.next_due(), std::nullopt);
}

TEST(HistoryKeeper, ErasingAKeyForgetsItsHistoryAndFlapping) {
  history_keeper k{{16, 100}, {1, 1000}};
  k.applied(task_c0, std::nullopt, keeper_value(status_state::failed), 100, false);
  ASSERT_EQ(k.flapping().size(), 1u);
  ASSERT_EQ(k.history("status-task-c-0").transitions.size(), 1u);
  k.erased("status-task-c-0");
  EXPECT_TRUE(k.flapping().empty());
  EXPECT_TRUE(k.history("status-task-c-0").transitions.empty());
  EXPECT_FALSE(k.history("status-task-c-0").any_kept);
}

TEST(HistoryKeeper, AddsEachConnectorsFailedCountAndFlappingKeysToTheCounts) {
  history_keeper k{{16, 100}, {1, 1000}};
  k.applied(task_c0, std::nullopt, keeper_value(status_state::failed), 100, false);
  k.applied(connector_c, std::nullopt, keeper_value(status_state::failed), 110, false);
  k.applied({"status-task-d-3", "d", 3}, std::nullopt, keeper_value(status_state::running), 120, false);
  std::map<std::string, connector_history_counts, std::less<>> counts;
  counts.emplace("quiet", connector_history_counts{"quiet", 0, 0});
  k.add_counts(counts);
  ASSERT_EQ(counts.size(), 2u);  // "d" neither failed nor flaps: added only by whoever knows its status
  EXPECT_EQ(counts.at("c"), (connector_history_counts{"c", 2, 2}));
  EXPECT_EQ(counts.at("quiet"), (connector_history_counts{"quiet", 0, 0}));
  k.take_recovered(1110);
  counts.clear();
  k.add_counts(counts);
  EXPECT_EQ(counts.at("c"), (connector_history_counts{"c", 2, 0}));  // recovered, still counted
}
