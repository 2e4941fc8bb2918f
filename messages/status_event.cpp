#include "messages/status_event.hpp"

#include "messages/status_record_codec.hpp"

#include <utility>
#include <variant>

namespace status_store {

status_event record_event(const consumed_record& r, const parsed_key& key) {
  status_event e;
  e.key = r.key;
  e.type = key.kind;
  e.connector = key.connector;
  if (key.kind == key_kind::task) e.task = key.task;
  if (key.kind == key_kind::topic) e.topic = key.topic;
  e.partition = r.partition;
  e.offset = r.offset;
  e.timestamp_ms = r.timestamp_ms;
  return e;
}

std::optional<status_event> decode_status_event(const consumed_record& r, const parsed_key& key) {
  status_event e = record_event(r, key);
  if (r.tombstone) {
    e.kind = status_event_kind::deleted;
    return e;
  }
  if (key.kind == key_kind::topic) {
    auto value = decode_topic_value(r.value);
    if (std::holds_alternative<decode_error>(value)) return std::nullopt;
    const auto& topic = std::get<topic_status>(value);
    e.kind = status_event_kind::topic;
    e.task = topic.task;
    e.discover_timestamp = topic.discover_timestamp;
    return e;
  }
  auto value = decode_status_value(r.value);
  if (std::holds_alternative<decode_error>(value)) return std::nullopt;
  e.value = std::get<status_value>(std::move(value));
  return e;
}

std::optional<status_event> stable_event(std::string_view record_key, int64_t window_ms) {
  auto parsed = parse_key(record_key);
  auto* key = std::get_if<parsed_key>(&parsed);
  if (key == nullptr || key->kind == key_kind::topic) return std::nullopt;
  status_event e;
  e.kind = status_event_kind::stable;
  e.key = std::string{record_key};
  e.type = key->kind;
  e.connector = std::move(key->connector);
  if (key->kind == key_kind::task) e.task = key->task;
  e.flapping = flap_mark::stopped;
  e.stable_for_ms = window_ms;
  return e;
}

}  // namespace status_store
