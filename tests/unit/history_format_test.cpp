// How the executable shows history and flapping (app/history_format.hpp): the CLI's lines and the JSON
// of `--json` and of the /status-store/v1/ endpoints.
#include "app/history_format.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

using namespace status_store;

namespace {

key_history two_transitions() {
  key_history h;
  h.any_kept = true;
  h.reaches_back_to_ms = 1'764'649'649'000;
  h.transitions.push_back({status_state::running, "w1:8083", 3, "", 1'764'649'649'123, false});
  h.transitions.push_back(
      {status_state::failed, "w1:8083", 3, "java.lang.RuntimeException: boom", 1'764'649'650'007, true});
  return h;
}

}  // namespace

TEST(HistoryFormat, TimestampsAreIso8601UtcWithMilliseconds) {
  EXPECT_EQ(iso8601_utc(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(iso8601_utc(1'764'649'649'123), "2025-12-02T04:27:29.123Z");
  EXPECT_EQ(iso8601_utc(1'709'208'000'001), "2024-02-29T12:00:00.001Z");  // a leap day
  EXPECT_EQ(iso8601_utc(-1), "1969-12-31T23:59:59.999Z");                 // floor, not truncation
}

TEST(HistoryFormat, TextIsAHeaderThenOneLinePerTransitionOldestFirst) {
  const auto lines = history_text_lines({"my-src", 0}, two_transitions());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].rfind("history of task my-src-0: 2 transition(s), oldest first; the store's history reaches "
                           "back to 2025-12-02T04:27:29.000Z",
                           0),
            0u)
      << lines[0];
  EXPECT_EQ(lines[1], "2025-12-02T04:27:29.123Z  RUNNING     w1:8083                 generation 3");
  EXPECT_EQ(lines[2],
            "2025-12-02T04:27:30.007Z  FAILED      w1:8083                 generation 3  (this store)  "
            "java.lang.RuntimeException: boom");
}

TEST(HistoryFormat, TextSaysWhenTheStoreKeepsNothing) {
  const auto lines = history_text_lines({"my-src", std::nullopt}, key_history{});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rfind("history of connector my-src: 0 transition(s)", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find("keeps no transition at all"), std::string::npos) << lines[0];
}

TEST(HistoryFormat, JsonHasEveryFieldInOrderAndNullsWhereNothingIsKnown) {
  EXPECT_EQ(history_json({"my-src", 0}, two_transitions()),
            R"({"connector":"my-src","task":0,"reaches_back_to":"2025-12-02T04:27:29.000Z",)"
            R"("reaches_back_to_ms":1764649649000,"transitions":[)"
            R"({"timestamp":"2025-12-02T04:27:29.123Z","timestamp_ms":1764649649123,"state":"RUNNING",)"
            R"("worker_id":"w1:8083","generation":3,"trace":null,"written_by_this_store":false},)"
            R"({"timestamp":"2025-12-02T04:27:30.007Z","timestamp_ms":1764649650007,"state":"FAILED",)"
            R"("worker_id":"w1:8083","generation":3,"trace":"java.lang.RuntimeException: boom",)"
            R"("written_by_this_store":true}]})");
  EXPECT_EQ(history_json({"c", std::nullopt}, key_history{}),
            R"({"connector":"c","reaches_back_to":null,"reaches_back_to_ms":null,"transitions":[]})");
}

TEST(HistoryFormat, JsonIsValidUtf8WhateverTheBytes) {
  key_history h;
  h.transitions.push_back({status_state::failed, "w\xFF", 1, "bad \xC3", 5, false});
  const auto parsed = nlohmann::json::parse(history_json({"caf\xC3\xA9\"", std::nullopt}, h));
  EXPECT_EQ(parsed["connector"], "caf\xC3\xA9\"");
  EXPECT_EQ(parsed["transitions"][0]["worker_id"], "w\xEF\xBF\xBD");
}

TEST(HistoryFormat, FlappingKeysAsLinesAsJsonLinesAndAsTheEndpointsDocument) {
  const std::vector<flapping_key> keys{{"a", false, 0, 1'764'649'649'123}, {"b", true, 2, 1'764'649'650'000}};
  const auto text = flapping_text_lines(keys);
  ASSERT_EQ(text.size(), 3u);
  EXPECT_EQ(text[0], "connector a flapping since 2025-12-02T04:27:29.123Z");
  EXPECT_EQ(text[1], "task b-2 flapping since 2025-12-02T04:27:30.000Z");
  EXPECT_EQ(text[2], "2 flapping connector(s) and task(s)");
  const auto lines = flapping_lines_json(keys);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            R"({"key":"status-connector-a","type":"connector","connector":"a","since":"2025-12-02T04:27:29.123Z",)"
            R"("since_ms":1764649649123})");
  EXPECT_EQ(lines[1],
            R"({"key":"status-task-b-2","type":"task","connector":"b","task":2,"since":"2025-12-02T04:27:30.000Z",)"
            R"("since_ms":1764649650000})");
  EXPECT_EQ(flapping_json(keys, 3, 600000),
            R"({"threshold":3,"window_ms":600000,"flapping":[)" + lines[0] + "," + lines[1] + "]}");
  EXPECT_EQ(flapping_json({}, 3, 600000), R"({"threshold":3,"window_ms":600000,"flapping":[]})");
  EXPECT_EQ(flapping_text_lines({}), std::vector<std::string>{"0 flapping connector(s) and task(s)"});
}
