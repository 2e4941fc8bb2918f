#pragma once
// Keeps an oversized trace from costing the status it belongs to. Connect writes a FAILED status
// with the whole stack trace; when that record exceeds the broker's max.message.bytes the send
// fails with a non-retriable RecordTooLargeException and the FAILED status is lost, so the worker
// keeps showing RUNNING. status-store instead cuts the trace to a budget
// (status.storage.trace.max.bytes) before encoding, and always writes the state.
//
// The cut keeps the head (the exception and its first frames) and the tail (the innermost
// "Caused by:", which is usually the real reason) and puts a marker between them that says it was
// cut, how much and by which setting, so nobody mistakes a shortened trace for the whole one.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace status_store {

/// The text between head and tail; `removed` and `original` are byte counts. Readers (people and
/// tools) can find a truncated trace by its prefix.
inline constexpr std::string_view trace_truncation_marker_prefix = "[status-store: trace truncated,";
std::string trace_truncation_marker(std::size_t removed, std::size_t original, std::size_t budget);

/// The smallest budget a cut trace can honour: the marker plus some head and tail. The setting's
/// lower bound.
inline constexpr std::size_t min_trace_budget_bytes = 1024;

/// nullopt when `trace` fits in `max_bytes` (the common case: nothing is copied); otherwise a trace
/// of at most `max_bytes` bytes made of a head, the marker and a tail. Cuts never split a UTF-8
/// sequence and prefer line ends, so the result is as valid as the input and reads like a trace.
/// `max_bytes` below min_trace_budget_bytes is treated as min_trace_budget_bytes.
std::optional<std::string> truncate_trace(std::string_view trace, std::size_t max_bytes);

}  // namespace status_store
