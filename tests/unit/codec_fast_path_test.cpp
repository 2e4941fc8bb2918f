// The codec's verbatim fast paths must give exactly what the JSON-library paths give — the encoders'
// bytes, the status decoder's value or error — whatever the strings hold: random strings drawn from an alphabet of plain ASCII, every escape-worthy character,
// 2-, 3- and 4-byte UTF-8, and invalid bytes.
#include "messages/status_record_codec.hpp"

#include "messages/status_updates.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace status_store;

namespace {
std::string random_text(std::mt19937_64& random) {
  static const std::vector<std::string> pieces{"a",
                                               "Z",
                                               "0",
                                               " ",
                                               "-",
                                               ":",
                                               "/",
                                               ".",
                                               "\"",
                                               "\\",
                                               "\n",
                                               "\t",
                                               "\r",
                                               std::string(1, '\0'),
                                               "\x01",
                                               "\x1f",
                                               "\x7f",
                                               "\xc3\xa9",
                                               "\xe2\x9c\x93",
                                               "\xf0\x9f\x98\x80",
                                               "\xed\xa0\x80",
                                               "\xc0\xaf",
                                               "\xff",
                                               "\xe2\x9c",
                                               "\xc3"};
  std::string out;
  const int n = static_cast<int>(random() % 12);
  for (int i = 0; i < n; ++i) {
    // Mostly plain characters, so both paths are exercised.
    out += random() % 3 ? pieces[random() % 8] : pieces[random() % pieces.size()];
  }
  return out;
}

status_value random_status_value(std::mt19937_64& random) {
  status_value v;
  v.state = static_cast<status_state>(random() % 7);
  if (random() % 2) v.trace = random_text(random);
  v.worker_id = random_text(random);
  v.generation = static_cast<int32_t>(random());
  if (random() % 2) v.version = random_text(random);
  return v;
}
}  // namespace

TEST(CodecFastPath, StatusValuesAreByteIdenticalToTheLibraryPath) {
  std::mt19937_64 random{7};
  for (int i = 0; i < 40000; ++i) {
    const status_value v = random_status_value(random);
    ASSERT_EQ(encode_status_value(v), encode_status_value_with_library(v)) << "case " << i;
  }
}

TEST(CodecFastPath, FillingOneReusedUpdateGivesWhatMakeUpdateGives) {
  // The facade's put fills one buffer per thread, so every case writes over the previous one's
  // (often longer) strings: the result must be exactly a fresh make_update's.
  std::mt19937_64 random{11};
  status_update buffer;
  for (int i = 0; i < 20000; ++i) {
    const bool safe = random() % 2;
    if (random() % 2) {
      const connector_status s{random_text(random), random_status_value(random)};
      fill_update(buffer, s, safe);
      ASSERT_EQ(buffer, make_update(s, safe)) << "case " << i;
    } else {
      const task_status s{random_text(random), static_cast<int32_t>(random()), random_status_value(random)};
      fill_update(buffer, s, safe);
      ASSERT_EQ(buffer, make_update(s, safe)) << "case " << i;
    }
  }
}

namespace {
/// Both decoders' answers as one comparable string: the value's re-encoding, or the error's reason.
std::string outcome(const decoded<status_value>& d) {
  if (const auto* e = std::get_if<decode_error>(&d)) return "error: " + e->reason;
  const auto& v = std::get<status_value>(d);
  return encode_status_value_with_library(v) + (v.trace ? "" : " (no trace)") + (v.version ? "" : " (no version)");
}
}  // namespace

TEST(CodecFastPath, StatusValuesDecodeAsTheLibraryPathDecodesThem) {
  std::mt19937_64 random{13};
  for (int i = 0; i < 40000; ++i) {
    const status_value v = random_status_value(random);
    const std::string bytes = encode_status_value(v);
    const auto fast = decode_status_value(bytes);
    ASSERT_EQ(outcome(fast), outcome(decode_status_value_with_library(bytes))) << "case " << i << ": " << bytes;
    ASSERT_TRUE(std::holds_alternative<status_value>(fast)) << bytes;
  }
}

TEST(CodecFastPath, NearMissesOfTheVerbatimFormDecodeAsTheLibraryPathDecodesThem) {
  for (const char* bytes :
       {R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1,"version":null})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1,"version":"1.0"})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":-0})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":01})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1.0})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1e2})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":2147483648})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":9999999999})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":-2147483649})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":18446744073709551617})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":-})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":"1"})",
        R"({"state":"RUNNIN","trace":null,"worker_id":"w","generation":1})",
        R"({"state":"running","trace":null,"worker_id":"w","generation":1})",
        R"({"state":"FAILED","trace":"a\nb","worker_id":"w","generation":1})",
        R"({"state":"FAILED","trace":"a\"b","worker_id":"w","generation":1})",
        R"({"state":"FAILED","trace":"\uD83D\uDE00","worker_id":"w","generation":1})",
        "{\"state\":\"FAILED\",\"trace\":\"\xF0\x9F\x98\x80\",\"worker_id\":\"w\",\"generation\":1}",
        "{\"state\":\"FAILED\",\"trace\":\"a\tb\",\"worker_id\":\"w\",\"generation\":1}",
        "{\"state\":\"FAILED\",\"trace\":\"\xFF\",\"worker_id\":\"w\",\"generation\":1}",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1} )",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1}garbage)",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1,"version":null,"x":1})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1,"version":7})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1,"version":)",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1,"generation":2})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w"})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1)",
        R"({"state":"RUNNING","trace":nul,"worker_id":"w","generation":1})",
        R"({ "state":"RUNNING","trace":null,"worker_id":"w","generation":1})",
        R"({"worker_id":"w","state":"RUNNING","generation":1})",
        R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":1,"version":"a\\b"})",
        "",
        "{",
        "null",
        "[]"}) {
    EXPECT_EQ(outcome(decode_status_value(bytes)), outcome(decode_status_value_with_library(bytes))) << bytes;
  }
}

TEST(CodecFastPath, TopicValuesAreByteIdenticalToTheLibraryPath) {
  std::mt19937_64 random{11};
  for (int i = 0; i < 20000; ++i) {
    topic_status t{random_text(random), random_text(random), static_cast<int32_t>(random()),
                   static_cast<int64_t>(random())};
    ASSERT_EQ(encode_topic_value(t), encode_topic_value_with_library(t)) << "case " << i;
  }
}
