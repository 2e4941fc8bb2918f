// The JSON document a webhook receives for an alert: every field, in its order, always present.
#include "messages/codec/alert_document.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace status_store {
namespace {

alert_event task_failed() {
  alert_event a;
  a.kind = alert_kind::failed;
  a.connector = "my-src";
  a.is_task = true;
  a.task = 0;
  a.state = status_state::failed;
  a.has_previous = true;
  a.previous_state = status_state::running;
  a.worker_id = "w1:8083";
  a.generation = 3;
  a.trace_first_line = "java.lang.RuntimeException: boom";
  a.timestamp_ms = 1795979753805;
  return a;
}

TEST(AlertDocument, ATaskThatFailedHasEveryFieldInOrder) {
  EXPECT_EQ(alert_document(task_failed(), "connect-status"),
            R"({"event":"failed","type":"task","connector":"my-src","task":0,"state":"FAILED",)"
            R"("previous_state":"RUNNING","worker_id":"w1:8083","generation":3,)"
            R"("trace":"java.lang.RuntimeException: boom","timestamp_ms":1795979753805,)"
            R"("status_topic":"connect-status","text":"task my-src-0 entered FAILED (was RUNNING) on w1:8083"})");
}

TEST(AlertDocument, AConnectorHasANullTaskAndUnknownsAreNull) {
  alert_event a;
  a.kind = alert_kind::flapping_stopped;
  a.connector = "c";
  a.state = status_state::running;
  a.worker_id = "w2";
  a.generation = 7;
  a.timestamp_ms = 5;
  const auto j = nlohmann::json::parse(alert_document(a, "t"));
  EXPECT_EQ(j["event"], "flapping_stopped");
  EXPECT_EQ(j["type"], "connector");
  EXPECT_TRUE(j["task"].is_null());
  EXPECT_TRUE(j["previous_state"].is_null());
  EXPECT_TRUE(j["trace"].is_null());
  EXPECT_EQ(j["state"], "RUNNING");
  EXPECT_EQ(j["text"], "connector c stopped flapping: RUNNING and stable for the flap window on w2");
  EXPECT_EQ(j.size(), 12u);
}

TEST(AlertDocument, EachKindHasItsEventNameAndText) {
  alert_event a = task_failed();
  a.kind = alert_kind::recovered;
  a.state = status_state::running;
  a.previous_state = status_state::failed;
  a.trace_first_line.clear();
  auto j = nlohmann::json::parse(alert_document(a, "t"));
  EXPECT_EQ(j["event"], "recovered");
  EXPECT_EQ(j["text"], "task my-src-0 recovered: RUNNING (was FAILED) on w1:8083");
  a = task_failed();
  a.kind = alert_kind::flapping_started;
  j = nlohmann::json::parse(alert_document(a, "t"));
  EXPECT_EQ(j["event"], "flapping_started");
  EXPECT_EQ(j["text"], "task my-src-0 is flapping: FAILED (was RUNNING) on w1:8083");
}

TEST(AlertDocument, NamesThatAreNotUtf8StillMakeValidJson) {
  alert_event a = task_failed();
  a.connector = std::string{"bad-\xff-\"name\"\n"};
  const std::string body = alert_document(a, "t");
  const auto j = nlohmann::json::parse(body);  // throws if the body were not valid JSON
  EXPECT_EQ(j["connector"], "bad-\xEF\xBF\xBD-\"name\"\n");
}

}  // namespace
}  // namespace status_store
