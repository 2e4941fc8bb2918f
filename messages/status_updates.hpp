#pragma once
// Turns a status into the coalescer's input: the record encoded once (codec), plus the fields
// putSafe decides on. Used by the facade on the caller's thread, and by any actor that reports
// statuses through the typed interface.
#include "messages/protocol.hpp"
#include "messages/status_record_codec.hpp"
#include "messages/trace_truncation.hpp"

namespace status_store {

/// Cuts the value's trace to `trace_max_bytes` (status.storage.trace.max.bytes) if it is longer, so
/// the status can be written at all; returns the original size when it cut, else nullopt. The
/// facade's put and put_safe do this; callers of put_all build updates themselves and should too.
inline std::optional<std::size_t> fit_trace(status_value& value, std::size_t trace_max_bytes) {
  if (!value.trace || value.trace->size() <= trace_max_bytes) return std::nullopt;
  const std::size_t original = value.trace->size();
  if (auto cut = truncate_trace(*value.trace, trace_max_bytes)) value.trace = std::move(*cut);
  return original;
}

inline status_update make_update(status_record record, bool safe, const status_value* value) {
  status_update u;
  u.key = std::move(record.key);
  u.tombstone = !record.value.has_value();
  if (record.value) u.value = std::move(*record.value);
  u.safe = safe;
  if (value) {
    u.worker_id = value->worker_id;
    u.generation = value->generation;
  }
  return u;
}

inline status_update make_update(const connector_status& s, bool safe = false) {
  return make_update(encode_connector_record(s), safe, &s.value);
}
inline status_update make_update(const task_status& s, bool safe = false) {
  return make_update(encode_task_record(s), safe, &s.value);
}
inline status_update make_update(const topic_status& s) { return make_update(encode_topic_record(s), false, nullptr); }
inline status_update make_topic_deletion(std::string_view connector, std::string_view topic) {
  return make_update(encode_topic_tombstone(topic, connector), false, nullptr);
}

}  // namespace status_store
