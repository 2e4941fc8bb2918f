// Decoding status and topic values with Connect's quirks (Java's integer casts, Jackson's leniency),
// and every rejection of KafkaStatusBackingStoreFormatTest.
#include "status_record_codec_support.hpp"

#include <limits>

namespace status_store {
namespace {
using namespace codec_test;

// --- topic values -----------------------------------------------------------------------------------

TEST(TopicValueEncoding, MatchesTheRealWireExample) {
  EXPECT_EQ(encode_topic_value(topic_status{"foo-topic", "foo-source", 0, 1580000000000}),
            R"({"topic":{"name":"foo-topic","connector":"foo-source","task":0,"discoverTimestamp":1580000000000}})");
}

TEST(TopicValueEncoding, ExtremesAndEscaping) {
  EXPECT_EQ(encode_topic_value(topic_status{"t\x01", "c\"", -1, std::numeric_limits<int64_t>::min()}),
            R"({"topic":{"name":"t\u0001","connector":"c\"","task":-1,"discoverTimestamp":-9223372036854775808}})");
}

TEST(TopicValueDecoding, ReadTopicStatusRoundTrip) {
  const topic_status status{"foo-topic", "foo-source", 3, 1580000000000};
  const auto decoded_status = decode_topic_value(encode_topic_value(status));
  ASSERT_TRUE(std::holds_alternative<topic_status>(decoded_status)) << reason_of(decoded_status);
  EXPECT_EQ(std::get<topic_status>(decoded_status), status);
}

TEST(TopicValueDecoding, IntegersFollowJavaLongCasts) {
  auto r = decode_topic_value(
      R"({"topic":{"name":"t","connector":"c","task":4294967297,"discoverTimestamp":18446744073709551615}})");
  ASSERT_TRUE(std::holds_alternative<topic_status>(r)) << reason_of(r);
  EXPECT_EQ(std::get<topic_status>(r).task, 1);
  EXPECT_EQ(std::get<topic_status>(r).discover_timestamp, -1);
}

TEST(TopicValueDecoding, RejectsWhatJavaRejects) {
  EXPECT_TRUE(is_error(decode_topic_value("invalid")));
  EXPECT_TRUE(is_error(decode_topic_value("[]")));
  EXPECT_TRUE(is_error(decode_topic_value("{}")));
  EXPECT_TRUE(is_error(decode_topic_value(R"({"topic":5})")));
  EXPECT_TRUE(is_error(decode_topic_value(R"({"topic":null})")));
  const std::string base = R"({"topic":{"name":"t","connector":"c","task":0,"discoverTimestamp":1}})";
  EXPECT_FALSE(is_error(decode_topic_value(base)));
  EXPECT_TRUE(is_error(decode_topic_value(R"({"topic":{"connector":"c","task":0,"discoverTimestamp":1}})")));
  EXPECT_TRUE(
      is_error(decode_topic_value(R"({"topic":{"name":null,"connector":"c","task":0,"discoverTimestamp":1}})")));
  EXPECT_TRUE(is_error(decode_topic_value(R"({"topic":{"name":"t","connector":7,"task":0,"discoverTimestamp":1}})")));
  EXPECT_TRUE(
      is_error(decode_topic_value(R"({"topic":{"name":"t","connector":"c","task":0.5,"discoverTimestamp":1}})")));
  EXPECT_TRUE(
      is_error(decode_topic_value(R"({"topic":{"name":"t","connector":"c","task":"0","discoverTimestamp":1}})")));
  EXPECT_TRUE(is_error(decode_topic_value(R"({"topic":{"name":"t","connector":"c","task":0}})")));
  EXPECT_TRUE(
      is_error(decode_topic_value(R"({"topic":{"name":"t","connector":"c","task":0,"discoverTimestamp":1.0}})")));
  EXPECT_EQ(reason_of(decode_topic_value(R"({"topic":{"name":"t","connector":"c","task":1.5,"discoverTimestamp":1}})")),
            "field 'task' is not an integer");
}

// --- status value decoding --------------------------------------------------------------------------

TEST(StatusValueDecoding, RealWireExamples) {
  EXPECT_EQ(decode_ok(R"({"state":"RUNNING","trace":null,"worker_id":"localhost:50292","generation":2})"),
            value(status_state::running, std::nullopt, "localhost:50292", 2));
  EXPECT_EQ(
      decode_ok(
          R"({"state":"FAILED","trace":"org.apache...WakeupException\n\tat ...","worker_id":"1.80.4.2:8083","generation":16})"),
      value(status_state::failed, "org.apache...WakeupException\n\tat ...", "1.80.4.2:8083", 16));
}

TEST(StatusValueDecoding, ReadConnectorStateFieldOrderAndAbsentTraceDoNotMatter) {
  // readConnectorState builds the map {worker_id, state, generation} without a trace.
  EXPECT_EQ(decode_ok(R"({"worker_id":"localhost:8083","state":"RUNNING","generation":0})"),
            value(status_state::running, std::nullopt, "localhost:8083", 0));
}

TEST(StatusValueDecoding, RoundTripsEveryState) {
  for (auto s : {status_state::unassigned, status_state::running, status_state::paused, status_state::failed,
                 status_state::destroyed, status_state::restarting, status_state::stopped}) {
    const status_value v =
        value(s, s == status_state::failed ? std::optional<std::string>("boom") : std::nullopt, "worker:8083", 7);
    EXPECT_EQ(decode_ok(encode_status_value(v)), v);
  }
}

TEST(StatusValueDecoding, JacksonEscapesDecode) {
  EXPECT_EQ(
      decode_ok(R"({"state":"FAILED","trace":"\u001F\u00e9\uD83D\uDE00\/","worker_id":"w","generation":1})").trace,
      std::optional<std::string>("\x1f\u00e9\U0001F600/"));
}

TEST(StatusValueDecoding, GenerationWrapsLikeLongIntValue) {
  EXPECT_EQ(decode_ok(with_generation("4294967298")).generation, 2);
  EXPECT_EQ(decode_ok(with_generation("2147483648")).generation, std::numeric_limits<int32_t>::min());
  EXPECT_EQ(decode_ok(with_generation("-2147483649")).generation, std::numeric_limits<int32_t>::max());
  EXPECT_EQ(decode_ok(with_generation("9223372036854775807")).generation, -1);
  EXPECT_EQ(decode_ok(with_generation("-9223372036854775808")).generation, 0);
  EXPECT_EQ(decode_ok(with_generation("18446744073709551615")).generation, -1);
  EXPECT_EQ(decode_ok(with_generation("-0")).generation, 0);
}

TEST(StatusValueDecoding, IntegersBeyond64BitsWrapLikeBigIntegerLongValue) {
  EXPECT_EQ(decode_ok(with_generation("18446744073709551618")).generation, 2);                     // 2^64 + 2
  EXPECT_EQ(decode_ok(with_generation("-9223372036854775809")).generation, -1);                    // -(2^63) - 1
  EXPECT_EQ(decode_ok(with_generation("340282366920938463463374607431768211457")).generation, 1);  // 2^128 + 1
}

TEST(StatusValueDecoding, NonIntegerGenerationIsAnError) {
  EXPECT_EQ(reason_of(decode_status_value(with_generation("1.5"))), "field 'generation' is not an integer");
  EXPECT_TRUE(is_error(decode_status_value(with_generation("1.0"))));
  EXPECT_TRUE(is_error(decode_status_value(with_generation("1e2"))));
  EXPECT_TRUE(is_error(decode_status_value(with_generation("\"2\""))));
  EXPECT_TRUE(is_error(decode_status_value(with_generation("true"))));
  EXPECT_TRUE(is_error(decode_status_value(with_generation("null"))));
  EXPECT_TRUE(is_error(decode_status_value(with_generation("[1]"))));
  EXPECT_TRUE(is_error(decode_status_value(R"({"state":"RUNNING","trace":null,"worker_id":"w"})")));
}

TEST(StatusValueDecoding, ReadInvalidStatusValueIsNotJson) {
  const auto r = decode_status_value("invalid");
  ASSERT_TRUE(is_error(r));
  EXPECT_TRUE(reason_of(r).starts_with("value is not JSON: ")) << reason_of(r);
  EXPECT_TRUE(is_error(decode_topic_value("invalid")));
}

TEST(StatusValueDecoding, MalformedBytesAreErrorsNeverExceptions) {
  for (const std::string& bytes :
       {std::string(""), std::string("   "), std::string("{"), std::string(R"({"state":"RUNNING")"),
        std::string(R"({"state":"RUNNING",})"), std::string("{'state':'RUNNING'}"), std::string("\xff\xfe"),
        std::string(R"({"state":"RUN)"
                    "\xff"
                    R"(NING"})"),
        std::string(R"({"state":"\uD800"})"), std::string(1, '\0'), std::string(R"({"generation":01})"),
        std::string("NaN")}) {
    EXPECT_NO_THROW({ EXPECT_TRUE(is_error(decode_status_value(bytes))) << bytes; });
    EXPECT_NO_THROW({ EXPECT_TRUE(is_error(decode_topic_value(bytes))) << bytes; });
  }
}

TEST(StatusValueDecoding, NonObjectValuesAreRejected) {
  for (const char* bytes : {"[]", "null", "123", "\"RUNNING\"", "true"}) {
    EXPECT_TRUE(is_error(decode_status_value(bytes))) << bytes;
  }
}

TEST(StatusValueDecoding, StateMustBeAKnownName) {
  EXPECT_EQ(reason_of(decode_status_value(R"({"state":"RUNNIN","trace":null,"worker_id":"w","generation":1})")),
            "unknown state 'RUNNIN'");
  EXPECT_TRUE(is_error(decode_status_value(R"({"state":"running","trace":null,"worker_id":"w","generation":1})")));
  EXPECT_TRUE(is_error(decode_status_value(R"({"state":null,"trace":null,"worker_id":"w","generation":1})")));
  EXPECT_TRUE(is_error(decode_status_value(R"({"state":1,"trace":null,"worker_id":"w","generation":1})")));
  EXPECT_TRUE(is_error(decode_status_value(R"({"trace":null,"worker_id":"w","generation":1})")));
}

TEST(StatusValueDecoding, TraceMustBeStringOrNull) {
  EXPECT_TRUE(is_error(decode_status_value(R"({"state":"FAILED","trace":5,"worker_id":"w","generation":1})")));
  EXPECT_TRUE(is_error(decode_status_value(R"({"state":"FAILED","trace":{},"worker_id":"w","generation":1})")));
  EXPECT_EQ(decode_ok(R"({"state":"FAILED","worker_id":"w","generation":1})").trace, std::nullopt);
}

TEST(StatusValueDecoding, WorkerIdIsRequiredString) {
  EXPECT_TRUE(is_error(decode_status_value(R"({"state":"RUNNING","trace":null,"generation":1})")));
  EXPECT_TRUE(is_error(decode_status_value(R"({"state":"RUNNING","trace":null,"worker_id":null,"generation":1})")));
  EXPECT_TRUE(is_error(decode_status_value(R"({"state":"RUNNING","trace":null,"worker_id":8083,"generation":1})")));
  EXPECT_EQ(decode_ok(R"({"state":"RUNNING","trace":null,"worker_id":"","generation":1})").worker_id, "");
}

TEST(StatusValueDecoding, JacksonLeniencyIsKept) {
  // Extra fields are ignored, the last duplicate wins, whitespace is fine, and content after the
  // first JSON value is never read (FAIL_ON_TRAILING_TOKENS is off in Jackson 2).
  EXPECT_EQ(decode_ok(R"({"state":"RUNNING","extra":[1,{"x":null}],"worker_id":"w","generation":1})"),
            value(status_state::running, std::nullopt, "w", 1));
  EXPECT_EQ(decode_ok(R"({"state":"PAUSED","state":"RUNNING","worker_id":"w","generation":1,"generation":2})"),
            value(status_state::running, std::nullopt, "w", 2));
  EXPECT_EQ(decode_ok(" \n{ \"state\" : \"RUNNING\" , \"worker_id\" : \"w\" , \"generation\" : 1 }\n "),
            value(status_state::running, std::nullopt, "w", 1));
  EXPECT_EQ(decode_ok(R"({"state":"RUNNING","worker_id":"w","generation":1} trailing garbage)"),
            value(status_state::running, std::nullopt, "w", 1));
}

}  // namespace
}  // namespace status_store
