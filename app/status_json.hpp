#pragma once
// JSON shapes the executable prints and serves: Kafka Connect's REST API bodies
// (GET /connectors, /connectors/{name}/status, /connectors/{name}/topics) and the operator CLI's
// `--json` lines (one object per status, with fields key, type, connector, task, topic, state,
// trace, worker_id, generation, discover_timestamp as they apply). Pure functions.
#include "messages/protocol.hpp"

#include <string>
#include <vector>

namespace status_store {

/// ["a","b"] — GET /connectors.
std::string connectors_json(const std::vector<std::string>& names);
/// {"name":..,"connector":{"state":..,"worker_id":..[,"trace":..]},"tasks":[{"id":0,"state":..,"worker_id":..}]}
/// — GET /connectors/{name}/status (Connect's ConnectorStateInfo; "type" is unknown to a status store
/// and left out).
std::string connector_status_json(const connector_view& view);
/// {"id":0,"state":..,"worker_id":..,"version":..[,"trace":..]} — GET /connectors/{name}/tasks/{id}/status.
std::string task_status_json(const task_status& task);
/// {"<name>":{"status":{...as connector_status_json...}},...} — GET /connectors?expand=status, for the
/// connectors with a status (Connect also lists configured connectors without one; "type" is left
/// out, as in connector_status_json).
std::string connectors_with_status_json(const std::vector<connector_view>& views);
/// {"<name>":{},...} — GET /connectors?expand=… with no expansion status-store serves ("info", the
/// connectors' configurations it does not have, or a type Connect ignores too): Connect's map form with
/// nothing expanded, for the connectors with a status.
std::string connectors_without_expansions_json(const std::vector<std::string>& names);
/// {"<name>":{"topics":["t1","t2"]}} — GET /connectors/{name}/topics.
std::string connector_topics_json(const connector_view& view);
/// One line per status of the connector: connector, then tasks, then topics.
std::vector<std::string> status_lines_json(const connector_view& view);

}  // namespace status_store
