// One status event's JSON (messages/codec/status_event_json.hpp): the line `watch --json` prints and the
// data of one event of GET /status-store/v1/events, byte for byte; the events decoded from records; and
// the Server-Sent Events framing, one data line per event whatever a name or trace holds.
#include "messages/codec/status_event_json.hpp"
#include "messages/status_record_codec.hpp"

#include <gtest/gtest.h>

using namespace status_store;

namespace {

consumed_record record_of(const status_record& r, int64_t timestamp_ms = 1795979753805) {
  return consumed_record{r.key, !r.value.has_value(), r.value.value_or(""), 2, 41, false, timestamp_ms};
}

status_event event_of(const status_record& r, int64_t timestamp_ms = 1795979753805) {
  const auto read = record_of(r, timestamp_ms);
  const auto event = decode_status_event(read, std::get<parsed_key>(parse_key(read.key)));
  EXPECT_TRUE(event.has_value());
  return event.value_or(status_event{});
}

}  // namespace

TEST(StatusEventJson, ATaskStatusIsWatchsLineWithItsTimestamp) {
  auto e = event_of(encode_task_record(
      task_status{"my-src", 0, status_value{status_state::failed, std::string{"boom\n\tat \"x\""}, "w1:8083", 3}}));
  e.flapping = flap_mark::started;
  EXPECT_EQ(status_event_json(e),
            R"({"key":"status-task-my-src-0","type":"task","connector":"my-src","task":0,"state":"FAILED",)"
            R"("trace":"boom\n\tat \"x\"","worker_id":"w1:8083","generation":3,"version":null,"flapping":"started",)"
            R"("partition":2,"offset":41,"timestamp_ms":1795979753805})");
}

TEST(StatusEventJson, AConnectorADeletionATopicAndAStaleUnassigned) {
  EXPECT_EQ(
      status_event_json(event_of(encode_connector_record(
          connector_status{"c", status_value{status_state::running, std::nullopt, "w", 1, "2.1.0"}}))),
      R"({"key":"status-connector-c","type":"connector","connector":"c","state":"RUNNING","trace":null,)"
      R"("worker_id":"w","generation":1,"version":"2.1.0","partition":2,"offset":41,"timestamp_ms":1795979753805})");
  EXPECT_EQ(status_event_json(event_of(status_record{"status-task-c-3", std::nullopt}, -1)),
            R"({"key":"status-task-c-3","type":"task","connector":"c","task":3,"deleted":true,"partition":2,)"
            R"("offset":41,"timestamp_ms":null})");
  EXPECT_EQ(status_event_json(event_of(encode_topic_record(topic_status{"orders", "c", 1, 99}))),
            R"({"key":"status-topic-orders:connector-c","type":"topic","connector":"c","topic":"orders","task":1,)"
            R"("discover_timestamp":99,"partition":2,"offset":41,"timestamp_ms":1795979753805})");
  auto stale =
      event_of(encode_task_record(task_status{"c", 0, status_value{status_state::unassigned, std::nullopt, "w", 1}}));
  stale.stale = true;
  EXPECT_NE(status_event_json(stale).find(R"("version":null,"stale":true,"partition":2)"), std::string::npos);
}

TEST(StatusEventJson, AKeyStableForTheWindowIsItsOwnEvent) {
  EXPECT_EQ(
      status_event_json(*stable_event("status-task-c-0", 600000)),
      R"({"key":"status-task-c-0","type":"task","connector":"c","task":0,"flapping":"stopped","stable_for_ms":600000})");
  EXPECT_EQ(
      status_event_json(*stable_event("status-connector-c", 10)),
      R"({"key":"status-connector-c","type":"connector","connector":"c","flapping":"stopped","stable_for_ms":10})");
  EXPECT_FALSE(stable_event("status-topic-t:connector-c", 10));
  EXPECT_FALSE(stable_event("nonsense", 10));
}

TEST(StatusEventJson, AMalformedValueIsNoEvent) {
  const consumed_record bad{"status-task-c-0", false, "{not json", 0, 1, false, -1};
  EXPECT_FALSE(decode_status_event(bad, std::get<parsed_key>(parse_key(bad.key))));
  const consumed_record bad_topic{"status-topic-t:connector-c", false, "[]", 0, 1, false, -1};
  EXPECT_FALSE(decode_status_event(bad_topic, std::get<parsed_key>(parse_key(bad_topic.key))));
}

TEST(StatusEventJson, HostileNamesAndTracesStayOneLineOfValidJsonAndOneSseEvent) {
  const std::string name = "<img src=x onerror=alert(1)>\r\ndata: forged\n\nevent: x";
  const std::string trace = "</script><script>alert(1)</script>\n\ndata: {}\r\r\xff\xfe";
  auto e = event_of(encode_task_record(task_status{name, 0, status_value{status_state::failed, "t", "w", 1}}));
  EXPECT_EQ(e.connector, name);
  e.value.trace = trace;  // bytes a record may hold that are not UTF-8
  const std::string json = status_event_json(e);
  EXPECT_EQ(json.find('\n'), std::string::npos);
  EXPECT_EQ(json.find('\r'), std::string::npos);
  EXPECT_NE(json.find("\xEF\xBF\xBD"), std::string::npos);  // not UTF-8: U+FFFD, never the bytes
  const std::string frames = status_events_sse({e, e});
  EXPECT_EQ(frames, "event: status\ndata: " + json + "\n\nevent: status\ndata: " + json + "\n\n");
  EXPECT_TRUE(status_events_sse({}).empty());
}
