#pragma once
// One event of the status topic as `status-store watch` prints it and GET /status-store/v1/events
// streams it (docs/http-service.md#the-event-stream): a status record read (a connector's or task's
// status, a topic status, a deletion), or a key that stopped flapping because it stayed stable for the
// flap window. The status view publishes these to its subscribers, one message per batch of records
// read; watch builds the same from the records it reads itself. The JSON both print is
// messages/codec/status_event_json.hpp. Plain structs; their inspect is in messages/protocol.hpp.
#include "messages/codec/status_key_format.hpp"
#include "messages/payloads.hpp"
#include "messages/status.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace status_store {

enum class status_event_kind : uint8_t {
  status,   // a connector's or task's status record
  deleted,  // a tombstone
  topic,    // a topic status record (KIP-558)
  stable,   // no record: the key stopped flapping, stable for the window
};

/// What a record did to the key's flapping (actors/policy/flap_rule.hpp's change, by value).
enum class flap_mark : uint8_t { none, started, stopped };

struct status_event {
  status_event_kind kind = status_event_kind::status;
  std::string key;  // the record's key, e.g. "status-task-my-src-0"
  key_kind type = key_kind::connector;
  std::string connector;
  int32_t task = -1;               // a task's id; for a topic status, the task that reported it
  std::string topic;               // topic statuses
  status_value value;              // kind status
  int64_t discover_timestamp = 0;  // kind topic
  flap_mark flapping = flap_mark::none;
  /// A task's UNASSIGNED that the view does not apply over its RUNNING of the same or a newer
  /// generation (KAFKA-12525, actors/policy/stale_unassigned.hpp): read, but not the task's state.
  bool stale = false;
  int32_t partition = -1;
  int64_t offset = -1;
  int64_t timestamp_ms = -1;  // the record's timestamp; -1 when it has none
  int64_t stable_for_ms = 0;  // kind stable: the flap window
  friend bool operator==(const status_event&, const status_event&) = default;
};

/// The event of record `r` whose key parsed as `key`: its content decoded; nullopt for a malformed
/// value. Flapping and staleness are the reader's to set (the view's rules, or watch's marks).
std::optional<status_event> decode_status_event(const consumed_record& r, const parsed_key& key);

/// The fields every event of `r` has (key, type, names, position, time), its content left empty.
status_event record_event(const consumed_record& r, const parsed_key& key);

/// The event of a key that stopped flapping on time alone, `window_ms` after its last unstable
/// transition; nullopt if `record_key` is not a status key.
std::optional<status_event> stable_event(std::string_view record_key, int64_t window_ms);

}  // namespace status_store
