// What `status-store watch` marks (app/flap_marks.hpp): the view's flap rule applied to the records
// watch reads, with the view's previous state, its stale-UNASSIGNED rule and its tombstones.
#include "app/flap_marks.hpp"

#include <gtest/gtest.h>

using namespace status_store;

namespace {

using change = flap_rule::change;

const parsed_key connector{key_kind::connector, "c", 0, {}};
const parsed_key task0{key_kind::task, "c", 0, {}};
constexpr const char* connector_record_key = "status-connector-c";
constexpr const char* task0_record_key = "status-task-c-0";

status_value value(status_state state, int32_t generation = 1) {
  return status_value{state, std::nullopt, "w1", generation};
}

}  // namespace

TEST(FlapMarks, ATaskStartsFlappingAtTheThresholdAndStopsWhenStableForTheWindow) {
  flap_marks marks{{2, 1000}};
  EXPECT_EQ(marks.status(task0, task0_record_key, value(status_state::running), 0), change::none);
  EXPECT_EQ(marks.status(task0, task0_record_key, value(status_state::failed), 10), change::none);
  EXPECT_EQ(marks.status(task0, task0_record_key, value(status_state::running), 20), change::none);
  EXPECT_EQ(marks.status(task0, task0_record_key, value(status_state::failed), 30), change::started);
  EXPECT_EQ(marks.flapping_count(), 1u);
  EXPECT_TRUE(marks.take_recovered(1029).empty());
  EXPECT_EQ(marks.take_recovered(1030), std::vector<std::string>{task0_record_key});
  EXPECT_EQ(marks.flapping_count(), 0u);
}

TEST(FlapMarks, AStableRecordAfterTheWindowStopsItOnThatRecord) {
  flap_marks marks{{1, 1000}};
  EXPECT_EQ(marks.status(connector, connector_record_key, value(status_state::failed), 0), change::started);
  EXPECT_EQ(marks.status(connector, connector_record_key, value(status_state::running), 500), change::none);
  EXPECT_EQ(marks.status(connector, connector_record_key, value(status_state::paused), 1000), change::stopped);
}

TEST(FlapMarks, AStaleUnassignedOfARunningTaskIsIgnoredAsTheViewIgnoresIt) {
  flap_marks marks{{1, 1000}};
  marks.status(task0, task0_record_key, value(status_state::running, 5), 0);
  // Ignored, so RUNNING stays the previous state and RESTARTING counts as unstable.
  EXPECT_EQ(marks.status(task0, task0_record_key, value(status_state::unassigned, 4), 10), change::none);
  EXPECT_EQ(marks.status(task0, task0_record_key, value(status_state::restarting, 5), 20), change::started);
}

TEST(FlapMarks, TombstonesForgetTheKeyAndAConnectorsForgetsItsTasks) {
  flap_marks marks{{1, 1000}};
  marks.status(task0, task0_record_key, value(status_state::failed), 0);
  marks.status(connector, connector_record_key, value(status_state::failed), 0);
  EXPECT_EQ(marks.flapping_count(), 2u);
  marks.tombstone(connector, connector_record_key);
  EXPECT_EQ(marks.flapping_count(), 0u);
  EXPECT_TRUE(marks.take_recovered(5000).empty());
  // Forgotten: a FAILED after the tombstone is the key's first record again.
  EXPECT_EQ(marks.status(task0, task0_record_key, value(status_state::failed), 10), change::started);
  marks.tombstone(task0, task0_record_key);
  EXPECT_EQ(marks.flapping_count(), 0u);
}

TEST(StaleUnassigned, AnUnassignedOfNoNewerGenerationOverARunningTaskIsIgnored) {
  using enum status_state;
  EXPECT_TRUE(is_stale_unassigned(running, 5, unassigned, 5));
  EXPECT_TRUE(is_stale_unassigned(running, 5, unassigned, 4));
  EXPECT_FALSE(is_stale_unassigned(running, 5, unassigned, 6));  // a newer generation: the task moved
  EXPECT_FALSE(is_stale_unassigned(failed, 5, unassigned, 4));   // only over RUNNING
  EXPECT_FALSE(is_stale_unassigned(running, 5, paused, 4));      // only UNASSIGNED
}

TEST(FlapMarks, SaysWhichTaskStatusTheViewWouldNotApply) {
  flap_marks marks{{3, 1000}};
  EXPECT_FALSE(marks.is_stale(task0, task0_record_key, value(status_state::unassigned, 4)));  // unknown key
  marks.status(task0, task0_record_key, value(status_state::running, 5), 0);
  EXPECT_TRUE(marks.is_stale(task0, task0_record_key, value(status_state::unassigned, 4)));
  EXPECT_TRUE(marks.is_stale(task0, task0_record_key, value(status_state::unassigned, 5)));
  EXPECT_FALSE(marks.is_stale(task0, task0_record_key, value(status_state::unassigned, 6)));  // a newer generation
  EXPECT_FALSE(marks.is_stale(task0, task0_record_key, value(status_state::failed, 4)));
  marks.status(connector, connector_record_key, value(status_state::running, 5), 0);
  EXPECT_FALSE(marks.is_stale(connector, connector_record_key, value(status_state::unassigned, 4)));  // tasks only
}
