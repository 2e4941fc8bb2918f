// Status values and keys as Kafka Connect's JsonConverter/Jackson write them: the exact bytes, every
// escape, the plugin version field.
#include "status_record_codec_support.hpp"

#include <limits>

namespace status_store {
namespace {
using namespace codec_test;

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

}  // namespace
}  // namespace status_store
