#include "messages/trace_truncation.hpp"

#include <algorithm>

namespace status_store {
namespace {

bool is_utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0u) == 0x80u; }

// A UTF-8 sequence has at most three continuation bytes; looking further would only matter for
// invalid input, which is kept as it is (the codec replaces invalid bytes when it encodes).
constexpr std::size_t max_continuation_bytes = 3;

/// The end of the head: at most `limit`, just before a line break if one lies in the last half of
/// the allowance (a cut between frames reads better than one inside a frame), else at a character
/// boundary.
std::size_t head_end(std::string_view trace, std::size_t limit) {
  const std::size_t newline = trace.rfind('\n', limit == 0 ? 0 : limit - 1);
  if (newline != std::string_view::npos && newline >= limit / 2) return newline;
  std::size_t end = limit;
  for (std::size_t i = 0; i < max_continuation_bytes && end > 0 && is_utf8_continuation(trace[end]); ++i) --end;
  return end;
}

/// The start of the tail: at least `from`, just after a line break if one lies in the first half of
/// the allowance, else at a character boundary.
std::size_t tail_start(std::string_view trace, std::size_t from) {
  const std::size_t allowance = trace.size() - from;
  const std::size_t newline = trace.find('\n', from);
  if (newline != std::string_view::npos && newline + 1 <= from + allowance / 2) return newline + 1;
  std::size_t start = from;
  for (std::size_t i = 0; i < max_continuation_bytes && start < trace.size() && is_utf8_continuation(trace[start]); ++i)
    ++start;
  return start;
}

}  // namespace

std::string trace_truncation_marker(std::size_t removed, std::size_t original, std::size_t budget) {
  // Starts and ends a line of its own, indented like a frame, so the trace stays line-structured.
  std::string marker = "\n\t... ";
  marker += trace_truncation_marker_prefix;
  marker += ' ';
  marker += std::to_string(removed);
  marker += " of ";
  marker += std::to_string(original);
  marker += " bytes removed to fit status.storage.trace.max.bytes=";
  marker += std::to_string(budget);
  marker += "] ...\n";
  return marker;
}

std::optional<std::string> truncate_trace(std::string_view trace, std::size_t max_bytes) {
  const std::size_t budget = std::max(max_bytes, min_trace_budget_bytes);
  if (trace.size() <= budget) return std::nullopt;
  // The marker's length depends on the digits of the removed count, which is at most the original
  // size: sizing for that makes the result fit whatever the cuts turn out to remove.
  const std::size_t marker_room = trace_truncation_marker(trace.size(), trace.size(), budget).size();
  const std::size_t text_room = budget - marker_room;
  // Three quarters head (what was thrown, where), one quarter tail (the root cause).
  const std::size_t head_room = text_room / 4 * 3;
  const std::size_t tail_room = text_room - head_room;
  const std::size_t head = head_end(trace, head_room);
  const std::size_t tail = tail_start(trace, trace.size() - tail_room);
  std::string cut;
  cut.reserve(budget);
  cut.append(trace.substr(0, head));
  cut += trace_truncation_marker(tail - head, trace.size(), budget);
  cut.append(trace.substr(tail));
  return cut;
}

}  // namespace status_store
