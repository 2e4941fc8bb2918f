// Cutting an oversized trace: nothing happens within the budget; beyond it the result fits, keeps
// head and tail, is marked, never splits a UTF-8 character, and still encodes as a Connect record.
#include "messages/trace_truncation.hpp"
#include "messages/status_record_codec.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

using namespace status_store;

namespace {

/// A Java-looking trace of about `bytes` bytes: exception line, frames, a root cause at the end.
std::string java_trace(std::size_t bytes) {
  std::string trace = "org.apache.kafka.connect.errors.ConnectException: sink failed\n";
  for (int frame = 0; trace.size() < bytes; ++frame)
    trace += "\tat com.example.Sink.put(Sink.java:" + std::to_string(frame) + ")\n";
  trace += "Caused by: java.io.IOException: disk \"full\"\n\tat com.example.Disk.write(Disk.java:7)";
  return trace;
}

bool valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80           ? 1
                               : (lead >> 5) == 0x6  ? 2
                               : (lead >> 4) == 0xE  ? 3
                               : (lead >> 3) == 0x1E ? 4
                                                     : 0;
    if (length == 0 || i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
    i += length;
  }
  return true;
}

}  // namespace

TEST(TraceTruncation, ATraceWithinTheBudgetIsLeftAlone) {
  EXPECT_FALSE(truncate_trace("", 4096));
  EXPECT_FALSE(truncate_trace(java_trace(1000), 4096));
  const std::string exactly = std::string(4096, 'x');
  EXPECT_FALSE(truncate_trace(exactly, 4096));
}

TEST(TraceTruncation, AnOversizedTraceFitsTheBudgetAndSaysSo) {
  const std::string trace = java_trace(200'000);
  const auto cut = truncate_trace(trace, 8192);
  ASSERT_TRUE(cut);
  EXPECT_LE(cut->size(), 8192u);
  EXPECT_GT(cut->size(), 8192u - 200);  // the budget is used, not wasted
  EXPECT_NE(cut->find(trace_truncation_marker_prefix), std::string::npos);
  EXPECT_NE(cut->find("status.storage.trace.max.bytes=8192"), std::string::npos);
  const std::string stated = " of " + std::to_string(trace.size()) + " bytes removed";
  EXPECT_NE(cut->find(stated), std::string::npos);
}

TEST(TraceTruncation, KeepsTheExceptionAtTheTopAndTheRootCauseAtTheBottom) {
  const std::string trace = java_trace(100'000);
  const auto cut = truncate_trace(trace, 4096);
  ASSERT_TRUE(cut);
  EXPECT_TRUE(cut->starts_with("org.apache.kafka.connect.errors.ConnectException: sink failed\n\tat com.example"));
  EXPECT_TRUE(
      cut->ends_with("Caused by: java.io.IOException: disk \"full\"\n\tat com.example.Disk.write(Disk.java:7)"));
  // Cut between frames: every line of the result is a whole line of the original or the marker.
  std::size_t begin = 0;
  while (begin < cut->size()) {
    std::size_t end = cut->find('\n', begin);
    if (end == std::string::npos) end = cut->size();
    const std::string line = cut->substr(begin, end - begin);
    if (line.find(trace_truncation_marker_prefix) == std::string::npos) {
      EXPECT_NE(trace.find(line + (end < cut->size() ? "\n" : "")), std::string::npos) << line;
    }
    begin = end + 1;
  }
}

TEST(TraceTruncation, TheRemovedCountIsExact) {
  const std::string trace = java_trace(50'000);
  const auto cut = truncate_trace(trace, 2048);
  ASSERT_TRUE(cut);
  const std::size_t marker_at = cut->find("\n\t... [status-store");
  ASSERT_NE(marker_at, std::string::npos);
  const std::size_t marker_end = cut->find("] ...\n", marker_at);
  ASSERT_NE(marker_end, std::string::npos);
  const std::size_t kept = cut->size() - (marker_end + 6 - marker_at);
  const std::string stated = std::to_string(trace.size() - kept) + " of " + std::to_string(trace.size());
  EXPECT_NE(cut->find(stated), std::string::npos) << *cut;
}

TEST(TraceTruncation, ABudgetBelowTheMinimumUsesTheMinimum) {
  const auto cut = truncate_trace(java_trace(10'000), 10);
  ASSERT_TRUE(cut);
  EXPECT_LE(cut->size(), min_trace_budget_bytes);
  EXPECT_NE(cut->find("status.storage.trace.max.bytes=1024"), std::string::npos);
  EXPECT_FALSE(truncate_trace(std::string(min_trace_budget_bytes, 'x'), 1));
}

TEST(TraceTruncation, NeverSplitsAUtf8CharacterWhateverTheBudget) {
  // No line breaks, so every cut falls back to a character boundary; 2-, 3- and 4-byte characters.
  std::string trace;
  while (trace.size() < 20'000) trace += "é连😀a";
  for (std::size_t budget = 1024; budget < 1200; ++budget) {
    const auto cut = truncate_trace(trace, budget);
    ASSERT_TRUE(cut);
    EXPECT_LE(cut->size(), budget);
    EXPECT_TRUE(valid_utf8(*cut)) << "budget " << budget;
  }
}

TEST(TraceTruncation, RandomTracesAlwaysFitAndStayValid) {
  std::mt19937 random{20261129};
  const std::string alphabet[] = {"a", "\n", "\t", "\"", "\\", "é", "连", "😀", "\n\tat x.y(Z.java:1)"};
  for (int round = 0; round < 300; ++round) {
    std::string trace;
    const std::size_t length = std::uniform_int_distribution<std::size_t>{0, 30'000}(random);
    while (trace.size() < length) trace += alphabet[random() % std::size(alphabet)];
    const std::size_t budget = std::uniform_int_distribution<std::size_t>{1024, 16'384}(random);
    const auto cut = truncate_trace(trace, budget);
    if (trace.size() <= budget) {
      EXPECT_FALSE(cut);
      continue;
    }
    ASSERT_TRUE(cut);
    EXPECT_LE(cut->size(), budget);
    EXPECT_TRUE(valid_utf8(*cut));
    EXPECT_NE(cut->find(trace_truncation_marker_prefix), std::string::npos);
  }
}

TEST(TraceTruncation, ACutTraceIsStillAConnectRecord) {
  status_value value{status_state::failed, *truncate_trace(java_trace(300'000), 65'536), "worker-1:8083", 7};
  const std::string encoded = encode_status_value(value);
  EXPECT_EQ(encoded, encode_status_value_with_library(value));
  const auto decoded = decode_status_value(encoded);
  ASSERT_TRUE(std::holds_alternative<status_value>(decoded));
  EXPECT_EQ(std::get<status_value>(decoded), value);
}
