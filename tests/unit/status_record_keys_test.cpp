// Whole records (tombstones for destroyed statuses) and key parsing with Java's split and parseInt
// quirks.
#include "status_record_codec_support.hpp"

namespace status_store {
namespace {
using namespace codec_test;

// --- whole records ----------------------------------------------------------------------------------

TEST(StatusRecords, DestroyedConnectorIsATombstone) {
  const auto record = encode_connector_record({"conn", value(status_state::destroyed, std::nullopt, "w", 3)});
  EXPECT_EQ(record.key, "status-connector-conn");
  EXPECT_EQ(record.value, std::nullopt);
}

TEST(StatusRecords, DestroyedTaskIsATombstone) {
  const auto record = encode_task_record({"conn", 0, value(status_state::destroyed, std::nullopt, "w", 3)});
  EXPECT_EQ(record.key, "status-task-conn-0");
  EXPECT_EQ(record.value, std::nullopt);
}

TEST(StatusRecords, OtherStatesCarryTheJsonValue) {
  const status_value running = value(status_state::running, std::nullopt, "localhost:8083", 0);
  EXPECT_EQ(encode_connector_record({"conn", running}),
            (status_record{"status-connector-conn", encode_status_value(running)}));
  EXPECT_EQ(encode_task_record({"foo-source", 4, running}),
            (status_record{"status-task-foo-source-4", encode_status_value(running)}));
}

TEST(StatusRecords, TopicRecordAndTombstone) {
  const topic_status status{"foo-topic", "foo-source", 0, 1580000000000};
  EXPECT_EQ(
      encode_topic_record(status),
      (status_record{
          "status-topic-foo-topic:connector-foo-source",
          R"({"topic":{"name":"foo-topic","connector":"foo-source","task":0,"discoverTimestamp":1580000000000}})"}));
  EXPECT_EQ(encode_topic_tombstone("foo", "bar"), (status_record{"status-topic-foo:connector-bar", std::nullopt}));
}

// --- key parsing ------------------------------------------------------------------------------------

TEST(ParseKey, ReadInvalidStatusKeysAreAllRejected) {
  for (const char* key :
       {"status-unknown", "status-connector-", "status-task-", "status-task-foo-source-#", "status-topic-",
        "status-topic-:connector-", "status-topic-foo-topic:", "status-topic-foo-topic:connector-"}) {
    EXPECT_TRUE(is_error(parse_key(key))) << key;
  }
  EXPECT_TRUE(reason_of(parse_key("status-unknown")).starts_with("unknown key prefix"));
  EXPECT_NE(reason_of(parse_key("status-task-foo-source-#")).find("invalid task id"), std::string::npos);
}

TEST(ParseKey, ConnectorKeys) {
  EXPECT_EQ(key_ok("status-connector-conn"), (parsed_key{key_kind::connector, "conn", 0, {}}));
  EXPECT_EQ(key_ok("status-connector-a-b:c-1"), (parsed_key{key_kind::connector, "a-b:c-1", 0, {}}));
  // Connector prefix is checked first.
  EXPECT_EQ(key_ok("status-connector-status-task-x-1").kind, key_kind::connector);
}

TEST(ParseKey, TaskKeysWithDashedConnectorNames) {
  EXPECT_EQ(key_ok("status-task-conn-0"), (parsed_key{key_kind::task, "conn", 0, {}}));
  EXPECT_EQ(key_ok("status-task-foo-source-12"), (parsed_key{key_kind::task, "foo-source", 12, {}}));
  EXPECT_EQ(key_ok("status-task-a-b-c-1"), (parsed_key{key_kind::task, "a-b-c", 1, {}}));
  EXPECT_EQ(key_ok(task_key("my-jdbc-sink", 7)), (parsed_key{key_kind::task, "my-jdbc-sink", 7, {}}));
}

TEST(ParseKey, TaskKeysFollowJavaSplitQuirks) {
  // An inner empty part is kept: the connector name ends with '-'.
  EXPECT_EQ(key_ok("status-task-conn--0"), (parsed_key{key_kind::task, "conn-", 0, {}}));
  // Trailing empty parts are dropped by String.split, so a trailing '-' is ignored.
  EXPECT_EQ(key_ok("status-task-conn-0-"), (parsed_key{key_kind::task, "conn", 0, {}}));
  EXPECT_EQ(key_ok("status-task-conn-0--"), (parsed_key{key_kind::task, "conn", 0, {}}));
  // The empty connector name is accepted, as in Java.
  EXPECT_EQ(key_ok("status-task--0"), (parsed_key{key_kind::task, "", 0, {}}));
  // "-7" is not a negative id: the split already consumed the '-'.
  EXPECT_EQ(key_ok("status-task-conn--7"), (parsed_key{key_kind::task, "conn-", 7, {}}));
  // Too few parts.
  EXPECT_TRUE(is_error(parse_key("status-task-0")));
  EXPECT_TRUE(is_error(parse_key("status-task-conn")));
  EXPECT_TRUE(is_error(parse_key("status-task-conn-")));
  EXPECT_TRUE(is_error(parse_key("status-task-conn--")));
  EXPECT_TRUE(is_error(parse_key("status-task--")));
  EXPECT_TRUE(is_error(parse_key("status-task---")));
}

TEST(ParseKey, TaskIdFollowsIntegerParseInt) {
  EXPECT_EQ(key_ok("status-task-conn-+7").task, 7);
  EXPECT_EQ(key_ok("status-task-conn-007").task, 7);
  EXPECT_EQ(key_ok("status-task-conn-2147483647").task, std::numeric_limits<int32_t>::max());
  EXPECT_TRUE(is_error(parse_key("status-task-conn-2147483648")));
  EXPECT_TRUE(is_error(parse_key("status-task-conn-99999999999")));
  EXPECT_TRUE(is_error(parse_key("status-task-conn-+")));
  EXPECT_TRUE(is_error(parse_key("status-task-conn- 1")));
  EXPECT_TRUE(is_error(parse_key("status-task-conn-1 ")));
  EXPECT_TRUE(is_error(parse_key("status-task-conn-0x1")));
  EXPECT_TRUE(is_error(parse_key("status-task-conn-1.0")));
  EXPECT_TRUE(is_error(parse_key("status-task-conn-٣")));  // non-ASCII digits: see java_parse_int
}

TEST(ParseKey, TopicKeys) {
  EXPECT_EQ(key_ok("status-topic-foo-topic:connector-foo-source"),
            (parsed_key{key_kind::topic, "foo-source", 0, "foo-topic"}));
  EXPECT_EQ(key_ok(topic_key("t.1_x", "c:d")), (parsed_key{key_kind::topic, "c:d", 0, "t.1_x"}));
}

TEST(ParseKey, TopicKeysSkipElevenCharactersWithoutCheckingThem) {
  // The ':' itself is the first of the 11 skipped characters.
  EXPECT_EQ(key_ok("status-topic-t:XXXXXXXXXXconn"), (parsed_key{key_kind::topic, "conn", 0, "t"}));
  // The topic ends at the *first* ':'.
  EXPECT_EQ(key_ok("status-topic-a:b:connector-c"), (parsed_key{key_kind::topic, "r-c", 0, "a"}));
  EXPECT_TRUE(is_error(parse_key("status-topic-t:short")));
  EXPECT_TRUE(is_error(parse_key("status-topic-no-colon")));
}

TEST(ParseKey, TopicKeySkipCountsJavaCharactersNotBytes) {
  // Java's substring counts UTF-16 units: 'ü' is one unit (two UTF-8 bytes), an emoji two.
  EXPECT_EQ(key_ok("status-topic-t:üüüüüüüüüüc").connector, "c");
  EXPECT_EQ(key_ok("status-topic-t:connecto\U0001F600c").connector, "c");
  // Skipping 11 units would end inside the surrogate pair: not representable, rejected.
  EXPECT_TRUE(is_error(parse_key("status-topic-t:connector\U0001F600c")));
}

TEST(ParseKey, UnknownPrefixes) {
  for (const char* key : {"", "status-", "status-connector", "status-tasks-x-1", "status-topics-t:connector-c",
                          "Status-connector-x", "connector-x"}) {
    EXPECT_TRUE(reason_of(parse_key(key)).starts_with("unknown key prefix")) << key;
  }
}

TEST(ParseKey, RoundTripsTheKeysWeWrite) {
  EXPECT_EQ(key_ok(connector_key("a-b-c")), (parsed_key{key_kind::connector, "a-b-c", 0, {}}));
  EXPECT_EQ(key_ok(task_key("a-b-c", 2147483647)), (parsed_key{key_kind::task, "a-b-c", 2147483647, {}}));
  EXPECT_EQ(key_ok(topic_key("orders-v2", "jdbc-sink")), (parsed_key{key_kind::topic, "jdbc-sink", 0, "orders-v2"}));
}

}  // namespace
}  // namespace status_store
