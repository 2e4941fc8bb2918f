// Keys and values of the status topic: exact bytes as Kafka Connect's JsonConverter/Jackson write
// them, decoding with Connect's quirks, and every rejection of KafkaStatusBackingStoreFormatTest.
#include "messages/status_record_codec.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>

namespace status_store {

// Readable failure output.
void PrintTo(const parsed_key& k, std::ostream* os) {
  *os << "{kind=" << static_cast<int>(k.kind) << ", connector='" << k.connector << "', task=" << k.task << ", topic='"
      << k.topic << "'}";
}
void PrintTo(const status_value& v, std::ostream* os) {
  *os << "{" << to_string(v.state) << ", trace=" << (v.trace ? "'" + *v.trace + "'" : std::string("null"))
      << ", worker_id='" << v.worker_id << "', generation=" << v.generation
      << ", version=" << (v.version ? "'" + *v.version + "'" : std::string("null")) << "}";
}
void PrintTo(const topic_status& t, std::ostream* os) {
  *os << "{" << t.topic << ", " << t.connector << ", " << t.task << ", " << t.discover_timestamp << "}";
}
void PrintTo(const status_record& r, std::ostream* os) {
  *os << "{key='" << r.key << "', value=" << (r.value ? "'" + *r.value + "'" : std::string("tombstone")) << "}";
}

namespace {

// --- helpers ----------------------------------------------------------------------------------------

template <class T>
::testing::AssertionResult is_error(const decoded<T>& result) {
  if (std::holds_alternative<decode_error>(result)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "decoded successfully";
}

template <class T>
std::string reason_of(const decoded<T>& result) {
  if (const auto* e = std::get_if<decode_error>(&result)) return e->reason;
  return "<no error>";
}

status_value decode_ok(std::string_view bytes) {
  auto result = decode_status_value(bytes);
  if (auto* e = std::get_if<decode_error>(&result)) {
    ADD_FAILURE() << "decode failed: " << e->reason << " for " << bytes;
    return {};
  }
  return std::get<status_value>(result);
}

parsed_key key_ok(std::string_view key) {
  auto result = parse_key(key);
  if (auto* e = std::get_if<decode_error>(&result)) {
    ADD_FAILURE() << "parse_key failed: " << e->reason;
    return {};
  }
  return std::get<parsed_key>(result);
}

status_value value(status_state state, std::optional<std::string> trace, std::string worker, int32_t generation) {
  return status_value{state, std::move(trace), std::move(worker), generation};
}

std::string with_generation(std::string_view generation_literal) {
  return std::string(R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":)") +
         std::string(generation_literal) + "}";
}

// --- states -----------------------------------------------------------------------------------------

TEST(StatusState, NamesAreTheJavaEnumNames) {
  EXPECT_EQ(to_string(status_state::unassigned), "UNASSIGNED");
  EXPECT_EQ(to_string(status_state::running), "RUNNING");
  EXPECT_EQ(to_string(status_state::paused), "PAUSED");
  EXPECT_EQ(to_string(status_state::failed), "FAILED");
  EXPECT_EQ(to_string(status_state::destroyed), "DESTROYED");
  EXPECT_EQ(to_string(status_state::restarting), "RESTARTING");
  EXPECT_EQ(to_string(status_state::stopped), "STOPPED");
}

TEST(StatusState, ParseIsExactAndCaseSensitiveLikeValueOf) {
  for (auto s : {status_state::unassigned, status_state::running, status_state::paused, status_state::failed,
                 status_state::destroyed, status_state::restarting, status_state::stopped}) {
    EXPECT_EQ(parse_status_state(to_string(s)), s);
  }
  EXPECT_EQ(parse_status_state("running"), std::nullopt);
  EXPECT_EQ(parse_status_state("RUNNIN"), std::nullopt);
  EXPECT_EQ(parse_status_state(" RUNNING"), std::nullopt);
  EXPECT_EQ(parse_status_state(""), std::nullopt);
}

// --- key building -----------------------------------------------------------------------------------

TEST(StatusKeys, BuildAsConnectDoes) {
  EXPECT_EQ(connector_key("conn"), "status-connector-conn");
  EXPECT_EQ(task_key("conn", 0), "status-task-conn-0");
  EXPECT_EQ(task_key("foo-source", 12), "status-task-foo-source-12");
  EXPECT_EQ(task_key("conn", -1), "status-task-conn--1");
  EXPECT_EQ(topic_key("foo-topic", "foo-source"), "status-topic-foo-topic:connector-foo-source");
}

// --- value encoding: exact bytes --------------------------------------------------------------------

TEST(StatusValueEncoding, RunningWithoutTraceMatchesTheRealWireExample) {
  EXPECT_EQ(encode_status_value(value(status_state::running, std::nullopt, "localhost:50292", 2)),
            R"({"state":"RUNNING","trace":null,"worker_id":"localhost:50292","generation":2,"version":null})");
}

TEST(StatusValueEncoding, FailedWithTraceMatchesTheRealWireExample) {
  EXPECT_EQ(
      encode_status_value(value(status_state::failed, "org.apache...WakeupException\n\tat ...", "1.80.4.2:8083", 16)),
      R"({"state":"FAILED","trace":"org.apache...WakeupException\n\tat ...","worker_id":"1.80.4.2:8083","generation":16,"version":null})");
}

TEST(StatusValueEncoding, EveryStateAndGenerationExtremes) {
  EXPECT_EQ(encode_status_value(value(status_state::unassigned, std::nullopt, "w", 0)),
            R"({"state":"UNASSIGNED","trace":null,"worker_id":"w","generation":0,"version":null})");
  EXPECT_EQ(encode_status_value(value(status_state::stopped, std::nullopt, "w", -1)),
            R"({"state":"STOPPED","trace":null,"worker_id":"w","generation":-1,"version":null})");
  EXPECT_EQ(
      encode_status_value(value(status_state::restarting, std::nullopt, "w", std::numeric_limits<int32_t>::max())),
      R"({"state":"RESTARTING","trace":null,"worker_id":"w","generation":2147483647,"version":null})");
  EXPECT_EQ(encode_status_value(value(status_state::paused, std::nullopt, "w", std::numeric_limits<int32_t>::min())),
            R"({"state":"PAUSED","trace":null,"worker_id":"w","generation":-2147483648,"version":null})");
}

TEST(StatusValueEncoding, EmptyTraceIsAStringNotNull) {
  EXPECT_EQ(encode_status_value(value(status_state::failed, "", "w", 1)),
            R"({"state":"FAILED","trace":"","worker_id":"w","generation":1,"version":null})");
}

std::string encoded_trace(std::string_view trace) {
  const std::string bytes = encode_status_value(value(status_state::failed, std::string(trace), "w", 1));
  const std::string prefix = R"({"state":"FAILED","trace":")";
  const std::string suffix = R"(","worker_id":"w","generation":1,"version":null})";
  EXPECT_TRUE(bytes.starts_with(prefix) && bytes.ends_with(suffix)) << bytes;
  return bytes.substr(prefix.size(), bytes.size() - prefix.size() - suffix.size());
}

TEST(StatusValueEncoding, ShortEscapesAsJackson) {
  EXPECT_EQ(encoded_trace("a\nb\tc\rd\be\ff"), R"(a\nb\tc\rd\be\ff)");
  EXPECT_EQ(encoded_trace("say \"hi\""), R"(say \"hi\")");
  EXPECT_EQ(encoded_trace("C:\\dir\\file"), R"(C:\\dir\\file)");
}

TEST(StatusValueEncoding, SlashIsNotEscaped) { EXPECT_EQ(encoded_trace("a/b</c>"), "a/b</c>"); }

TEST(StatusValueEncoding, OtherControlCharactersUseUpperCaseHexLikeJackson) {
  EXPECT_EQ(encoded_trace(std::string("\x01", 1)), R"(\u0001)");
  EXPECT_EQ(encoded_trace(std::string("\x1f", 1)), R"(\u001F)");
  EXPECT_EQ(encoded_trace(std::string("\x1a\x1b\x0b\x0e", 4)), R"(\u001A\u001B\u000B\u000E)");
  EXPECT_EQ(encoded_trace(std::string("\0", 1)), R"(\u0000)");
}

TEST(StatusValueEncoding, DelIsWrittenRaw) {
  EXPECT_EQ(encoded_trace("a\x7f"
                          "b"),
            "a\x7f"
            "b");
}

TEST(StatusValueEncoding, LiteralBackslashUTextIsNotMistakenForAnEscape) {
  // The text \u001f (six characters) must stay lower-case: only real escapes are upper-cased.
  EXPECT_EQ(encoded_trace(R"(\u001f)"), R"(\\u001f)");
  EXPECT_EQ(encoded_trace(R"(\\u00ab)"), R"(\\\\u00ab)");
  EXPECT_EQ(encoded_trace("\\"
                          "\x1f"),
            R"(\\\u001F)");
}

TEST(StatusValueEncoding, BmpNonAsciiIsRawUtf8) {
  EXPECT_EQ(encoded_trace("Grüße ✓"), "Grüße ✓");
  EXPECT_EQ(encoded_trace("\u2028\u00e9\u4e2d"), "\u2028\u00e9\u4e2d");
}

TEST(StatusValueEncoding, SupplementaryCharactersAreEscapedSurrogatePairsLikeJacksonUtf8Generator) {
  // jackson-core UTF8JsonGenerator writes non-BMP characters as \uD83D\uDE00 (issue #223).
  EXPECT_EQ(encoded_trace("\U0001F600"), R"(\uD83D\uDE00)");
  EXPECT_EQ(encoded_trace("x\U00010000y\U0010FFFF"), R"(x\uD800\uDC00y\uDBFF\uDFFF)");
}

TEST(StatusValueEncoding, InvalidUtf8IsReplacedNotThrown) {
  EXPECT_EQ(encoded_trace("a\xff"
                          "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(encoded_trace("end\xe2\x9c"), "end\xEF\xBF\xBD");
  EXPECT_EQ(encoded_trace("\xc3"), "\xEF\xBF\xBD");
  // A UTF-8-encoded surrogate (CESU-8) is not valid UTF-8 either.
  EXPECT_NO_THROW(encoded_trace("\xed\xa0\x80"));
  EXPECT_NO_THROW(encode_status_value(value(status_state::running, std::nullopt, "w\xff", 1)));
}

TEST(StatusValueEncoding, EscapedValuesDecodeBackToTheSameTrace) {
  for (const std::string& trace :
       {std::string("line1\nline2\tx"), std::string("\x01\x1f\x7f", 3), std::string("q\"b\\s/"), std::string("Grüße ✓"),
        std::string("\U0001F600 emoji"), std::string("\\u001f"), std::string("\0x", 2)}) {
    const status_value v = value(status_state::failed, trace, "w", 3);
    EXPECT_EQ(decode_ok(encode_status_value(v)), v) << trace;
  }
}

// --- the plugin version (KIP-891, Connect 4.1+) ------------------------------------------------------

TEST(StatusValueEncoding, TheVersionIsTheLastFieldAsConnect41AndLaterWriteIt) {
  // KafkaStatusBackingStore.serialize of Connect 4.1-4.4: STATUS_SCHEMA_V0 ends with an optional
  // "version"; JsonConverter writes it as null when the worker reported none.
  EXPECT_EQ(encode_status_value(status_value{status_state::running, std::nullopt, "localhost:8083", 2, "4.4.0"}),
            R"({"state":"RUNNING","trace":null,"worker_id":"localhost:8083","generation":2,"version":"4.4.0"})");
  EXPECT_EQ(encode_status_value(status_value{status_state::failed, "boom", "w", 1, ""}),
            R"({"state":"FAILED","trace":"boom","worker_id":"w","generation":1,"version":""})");
  // A version that needs escaping takes the library path and still comes out as Jackson writes it.
  EXPECT_EQ(encode_status_value(status_value{status_state::paused, std::nullopt, "w", 1, "1.0\"\U0001F600"}),
            R"({"state":"PAUSED","trace":null,"worker_id":"w","generation":1,"version":"1.0\"\uD83D\uDE00"})");
}

TEST(StatusValueDecoding, TheVersionIsReadWhenPresentAndNoneWhenAbsentOrNull) {
  EXPECT_EQ(decode_ok(R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1,"version":"3.1.2"})").version,
            std::optional<std::string>{"3.1.2"});
  EXPECT_EQ(decode_ok(R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1,"version":null})").version,
            std::nullopt);
  // Connect 3.x and 4.0 wrote four fields.
  EXPECT_EQ(decode_ok(R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1})").version, std::nullopt);
  // (String) map.get("version") of anything else throws in Connect, which then skips the record.
  EXPECT_EQ(reason_of(decode_status_value(R"({"state":"RUNNING","worker_id":"w","generation":1,"version":4})")),
            "field 'version' is not a string or null");
  EXPECT_TRUE(is_error(decode_status_value(R"({"state":"RUNNING","worker_id":"w","generation":1,"version":["1"]})")));
}

TEST(StatusValueEncoding, AVersionRoundTrips) {
  for (const std::optional<std::string>& version :
       {std::optional<std::string>{}, std::optional<std::string>{"1.0.0-SNAPSHOT"}, std::optional<std::string>{""},
        std::optional<std::string>{"v\n\"2\""}, std::optional<std::string>{"版本 \U0001F600"}}) {
    const status_value v{status_state::running, std::nullopt, "w", 7, version};
    EXPECT_EQ(decode_ok(encode_status_value(v)), v) << version.value_or("(none)");
  }
}

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
