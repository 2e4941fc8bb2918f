#pragma once
// The statuses a worker reports, as Kafka Connect models them (AbstractStatus, ConnectorStatus,
// TaskStatus, TopicStatus). Plain data: no actors, no Kafka.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace status_store {

/// AbstractStatus.State. Written on the wire by its upper-case name. DESTROYED is never stored as
/// a value: it is written as a tombstone.
enum class status_state : uint8_t { unassigned, running, paused, failed, destroyed, restarting, stopped };

std::string_view to_string(status_state state);
/// Parses an upper-case state name ("RUNNING"); nullopt for anything else.
std::optional<status_state> parse_status_state(std::string_view name);

/// The value part shared by connector and task statuses.
struct status_value {
  status_value() = default;
  /// `{state, trace, worker, generation}` builds a status without a plugin version, as before
  /// Connect 4.1, without tripping -Wmissing-field-initializers in callers' code.
  status_value(status_state state, std::optional<std::string> trace, std::string worker_id, int32_t generation,
               std::optional<std::string> version = std::nullopt)
      : state{state},
        trace{std::move(trace)},
        worker_id{std::move(worker_id)},
        generation{generation},
        version{std::move(version)} {}

  status_state state = status_state::unassigned;
  std::optional<std::string> trace;  // JSON null when absent
  std::string worker_id;
  int32_t generation = 0;
  /// AbstractStatus.version (KIP-891, Connect 4.1+): the version of the connector or task plugin that
  /// reported the status; JSON null when unknown.
  std::optional<std::string> version;
  friend bool operator==(const status_value&, const status_value&) = default;
};

struct connector_status {
  std::string connector;
  status_value value;
  friend bool operator==(const connector_status&, const connector_status&) = default;
};

struct task_status {
  std::string connector;
  int32_t task = 0;
  status_value value;
  friend bool operator==(const task_status&, const task_status&) = default;
};

/// KIP-558 active topic of a connector.
struct topic_status {
  std::string topic;
  std::string connector;
  int32_t task = 0;
  int64_t discover_timestamp = 0;  // ms since the epoch
  friend bool operator==(const topic_status&, const topic_status&) = default;
};

}  // namespace status_store
