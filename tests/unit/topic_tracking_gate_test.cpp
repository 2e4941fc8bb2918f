// topic_tracking_refusal: Connect 4.4's 403s for the active-topics endpoints under every combination
// of topic.tracking.enable and topic.tracking.allow.reset, in ConnectorsResource's order and words.
#include "app/topic_tracking_gate.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string_view>

namespace status_store {
namespace {

constexpr std::string_view tracking_disabled = "Topic tracking is disabled.";
constexpr std::string_view reset_disabled = "Topic tracking reset is disabled.";

TEST(TopicTrackingGate, EverythingIsServedWithBothOn) {
  EXPECT_EQ(topic_tracking_refusal(http_endpoint::connector_topics, true, true), std::nullopt);
  EXPECT_EQ(topic_tracking_refusal(http_endpoint::reset_connector_topics, true, true), std::nullopt);
}

TEST(TopicTrackingGate, ResetOffRefusesOnlyTheReset) {
  EXPECT_EQ(topic_tracking_refusal(http_endpoint::connector_topics, true, false), std::nullopt);
  EXPECT_EQ(topic_tracking_refusal(http_endpoint::reset_connector_topics, true, false), reset_disabled);
}

TEST(TopicTrackingGate, TrackingOffRefusesTopicsAndResetBeforeTheResetSwitch) {
  for (const bool reset_allowed : {true, false}) {
    EXPECT_EQ(topic_tracking_refusal(http_endpoint::connector_topics, false, reset_allowed), tracking_disabled);
    EXPECT_EQ(topic_tracking_refusal(http_endpoint::reset_connector_topics, false, reset_allowed), tracking_disabled);
  }
}

TEST(TopicTrackingGate, OtherEndpointsAreNeverRefused) {
  for (const auto endpoint : {http_endpoint::connectors, http_endpoint::connector_status, http_endpoint::task_status,
                              http_endpoint::metrics, http_endpoint::healthz, http_endpoint::error}) {
    EXPECT_EQ(topic_tracking_refusal(endpoint, false, false), std::nullopt);
  }
}

}  // namespace
}  // namespace status_store
