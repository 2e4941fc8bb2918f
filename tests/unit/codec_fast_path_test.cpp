// The encoders' verbatim fast path must give exactly the bytes of the JSON-library path, whatever the
// strings hold: random strings drawn from an alphabet of plain ASCII, every escape-worthy character,
// 2-, 3- and 4-byte UTF-8, and invalid bytes.
#include "messages/status_record_codec.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace status_store;

namespace {
std::string random_text(std::mt19937_64& random) {
  static const std::vector<std::string> pieces{
      "a", "Z", "0", " ", "-", ":", "/", ".", "\"", "\\", "\n", "\t", "\r", std::string(1, '\0'), "\x01", "\x1f",
      "\x7f", "\xc3\xa9", "\xe2\x9c\x93", "\xf0\x9f\x98\x80", "\xed\xa0\x80", "\xc0\xaf", "\xff", "\xe2\x9c", "\xc3"};
  std::string out;
  const int n = static_cast<int>(random() % 12);
  for (int i = 0; i < n; ++i) {
    // Mostly plain characters, so both paths are exercised.
    out += random() % 3 ? pieces[random() % 8] : pieces[random() % pieces.size()];
  }
  return out;
}
}  // namespace

TEST(CodecFastPath, StatusValuesAreByteIdenticalToTheLibraryPath) {
  std::mt19937_64 random{7};
  for (int i = 0; i < 40000; ++i) {
    status_value v{static_cast<status_state>(random() % 7),
                   random() % 2 ? std::optional<std::string>{random_text(random)} : std::nullopt,
                   random_text(random), static_cast<int32_t>(random()),
                   random() % 2 ? std::optional<std::string>{random_text(random)} : std::nullopt};
    ASSERT_EQ(encode_status_value(v), encode_status_value_with_library(v)) << "case " << i;
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
