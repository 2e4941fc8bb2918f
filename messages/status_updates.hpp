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

/// The value fields of an update (a DESTROYED state is a tombstone), written into `u` with its
/// strings' capacity reused.
inline void fill_update_value(status_update& u, const status_value& value, bool safe) {
  u.tombstone = value.state == status_state::destroyed;
  if (u.tombstone)
    u.value.clear();
  else
    encode_status_value_into(value, u.value);
  u.safe = safe;
  u.worker_id.assign(value.worker_id);
  u.generation = value.generation;
  u.put_ns = 0;
}

/// What make_update(s, safe) returns, written into `u` with its strings' capacity reused: the facade
/// fills a per-thread update this way and the ingest table copies it into the key's waiting entry,
/// so replacing a waiting update allocates nothing (docs/architecture.md, "The ingest").
inline void fill_update(status_update& u, const connector_status& s, bool safe) {
  connector_key_into(s.connector, u.key);
  fill_update_value(u, s.value, safe);
}
inline void fill_update(status_update& u, const task_status& s, bool safe) {
  task_key_into(s.connector, s.task, u.key);
  fill_update_value(u, s.value, safe);
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
