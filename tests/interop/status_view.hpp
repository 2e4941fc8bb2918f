#pragma once
// What a status store says about a topic, in one shape for both stores, so that Kafka Connect's Java
// KafkaStatusBackingStore and status-store can be compared field by field: connector name -> its
// connector status (if any), its task statuses by id, its topic statuses by name. Built from the
// Java driver's `read` output and from the status-store facade's getters.
#include "app/store/store.hpp"
#include "messages/status.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace status_store::interop {

struct connector_entry {
  std::optional<status_value> status;          // nullopt: no connector status
  std::map<int32_t, status_value> tasks;       // by task id
  std::map<std::string, topic_status> topics;  // by topic name
  friend bool operator==(const connector_entry&, const connector_entry&) = default;
};

using status_view = std::map<std::string, connector_entry>;

/// The Java driver's `read` output ({"connectors":[{"name","status","tasks","topics"}]}), each
/// status with its "version" (AbstractStatus.version, Connect 4.1+). Throws std::runtime_error on a
/// malformed document.
status_view view_from_java(const nlohmann::json& read_output);

/// What `s` serves for every connector it lists plus `names`.
status_view view_from_store(store& s, const std::vector<std::string>& names);

/// Every difference between two views, one readable line each (empty when they are equal): which
/// connector, task or topic, which field, both values with control characters escaped.
std::vector<std::string> differences(const status_view& expected, const status_view& actual);

/// The lines of differences() joined for a test failure message.
std::string describe_differences(const std::vector<std::string>& lines);

}  // namespace status_store::interop
