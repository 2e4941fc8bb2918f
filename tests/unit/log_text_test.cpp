// escape_for_log: what a byte string read from the status topic looks like in a log line. Nothing that
// a terminal or a log viewer acts on survives, no byte outside well-formed UTF-8 survives, the output
// is bounded, and ordinary keys (Connect's, with non-ASCII names) are unchanged.
#include "actors/policy/log_text.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace status_store;
using namespace std::string_literals;

namespace {

/// Whether every byte of `s` is printable ASCII, a backslash escape or part of well-formed UTF-8 of a
/// character that is shown (checked crudely: no C0 control, no DEL, no C1 control's bytes).
bool harmless(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x20 || b == 0x7F) return false;
    if (b == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0) return false;
  }
  return true;
}

}  // namespace

TEST(LogText, ConnectKeysAndUtf8NamesAreUnchanged) {
  for (const std::string key : {"status-connector-my-src", "status-task-my-src-0", "status-topic-orders:connector-c",
                                "status-connector-sink-\xC3\xBC", "status-connector-\xE6\x97\xA5\xE6\x9C\xAC",
                                "status-connector-\xF0\x9F\x98\x80"})
    EXPECT_EQ(escape_for_log(key, 256), key);
}

TEST(LogText, ControlCharactersAndTerminalEscapesBecomeHex) {
  EXPECT_EQ(escape_for_log("a\x1b[31mred\x1b[0m", 256), "a\\x1b[31mred\\x1b[0m");
  EXPECT_EQ(escape_for_log("line\nforged INFO line\r\t", 256), "line\\x0aforged INFO line\\x0d\\x09");
  EXPECT_EQ(escape_for_log("nul\0del\x7f"s, 256), "nul\\x00del\\x7f");
  EXPECT_EQ(escape_for_log("csi\xC2\x9B"
                           "31m",
                           256),
            "csi\\xc2\\x9b31m")
      << "C1 CSI, as UTF-8";
  EXPECT_EQ(escape_for_log("a\xE2\x80\xA8"
                           "b",
                           256),
            "a\\xe2\\x80\\xa8b")
      << "U+2028 line separator";
  EXPECT_EQ(escape_for_log("\xE2\x80\xAE"
                           "evil",
                           256),
            "\\xe2\\x80\\xaeevil")
      << "U+202E right-to-left override";
}

TEST(LogText, BytesOutsideWellFormedUtf8BecomeHex) {
  EXPECT_EQ(escape_for_log("\xFF\xFE", 256), "\\xff\\xfe");
  EXPECT_EQ(escape_for_log("\x80x", 256), "\\x80x") << "a stray continuation byte";
  EXPECT_EQ(escape_for_log("\xC3", 256), "\\xc3") << "a sequence cut short by the end";
  EXPECT_EQ(escape_for_log("\xC3x", 256), "\\xc3x") << "a sequence cut short by ASCII";
  EXPECT_EQ(escape_for_log("\xC0\xAF", 256), "\\xc0\\xaf") << "an overlong '/'";
  EXPECT_EQ(escape_for_log("\xE0\x80\xAF", 256), "\\xe0\\x80\\xaf") << "an overlong '/' in three bytes";
  EXPECT_EQ(escape_for_log("\xED\xA0\x80", 256), "\\xed\\xa0\\x80") << "a UTF-16 surrogate";
  EXPECT_EQ(escape_for_log("\xF4\x90\x80\x80", 256), "\\xf4\\x90\\x80\\x80") << "above U+10FFFF";
}

TEST(LogText, ABackslashIsDoubledSoEveryEscapeIsOneInTheInput) {
  EXPECT_EQ(escape_for_log("a\\x1b", 256), "a\\\\x1b");
  EXPECT_NE(escape_for_log("a\\x1b", 256), escape_for_log("a\x1b", 256));
}

TEST(LogText, LongTextIsCutAtTheBoundWithoutSplittingACharacterOrAnEscape) {
  EXPECT_EQ(escape_for_log(std::string(1000, 'k'), 10), "kkkkkkkkkk...[990 more bytes]");
  EXPECT_EQ(escape_for_log(std::string(10, 'k'), 10), "kkkkkkkkkk") << "exactly at the bound: not cut";
  EXPECT_EQ(escape_for_log("kkkkkkkk\x1b", 10), "kkkkkkkk...[1 more bytes]") << "\\x1b would pass the bound";
  EXPECT_EQ(escape_for_log("kkkkkkkkk\xC3\xBC", 10), "kkkkkkkkk...[2 more bytes]") << "nor half of a character";
  EXPECT_EQ(escape_for_log("", 10), "");
}

TEST(LogText, EveryByteValueComesOutHarmless) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  const std::string out = escape_for_log(all + all, 100000);
  EXPECT_TRUE(harmless(out)) << out;
  for (int pair = 0; pair < 256 * 256; pair += 97) {
    const std::string two{static_cast<char>(pair >> 8), static_cast<char>(pair & 0xFF)};
    EXPECT_TRUE(harmless(escape_for_log(two, 64))) << pair;
  }
}
