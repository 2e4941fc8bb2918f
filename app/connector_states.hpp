#pragma once
// Questions about a connector's state that Connect's REST cannot answer, asked of one connector_view:
// is it in a state (its own or a task's), is it degraded (RUNNING while a task is FAILED, strimzi#6624).
// One definition for GET /connectors?state=, `list --state` and the per-state metrics, so the three agree.
#include "config/ascii.hpp"
#include "messages/payloads.hpp"

#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace status_store {

/// The states a status record can hold: DESTROYED is written as a tombstone, so the view never has it.
inline constexpr std::array<status_state, 6> reported_states{status_state::unassigned, status_state::running,
                                                             status_state::paused,     status_state::failed,
                                                             status_state::restarting, status_state::stopped};

/// Their names for an error message: "UNASSIGNED, RUNNING, PAUSED, FAILED, RESTARTING, STOPPED".
inline constexpr std::string_view reported_state_names = "UNASSIGNED, RUNNING, PAUSED, FAILED, RESTARTING, STOPPED";

/// A state name as an operator types it (any case); nullopt for an unknown one or DESTROYED.
inline std::optional<status_state> parse_reported_state(std::string_view text) {
  const auto state = parse_status_state(ascii_uppercase(text));
  if (!state || *state == status_state::destroyed) return std::nullopt;
  return state;
}

/// The connector's own state is `state`, or one of its tasks' is.
inline bool has_state(const connector_view& view, status_state state) {
  if (view.found && view.connector.value.state == state) return true;
  for (const auto& t : view.tasks)
    if (t.value.state == state) return true;
  return false;
}

/// The views that have `state` (has_state), in their order.
inline std::vector<connector_view> with_state(std::vector<connector_view> views, status_state state) {
  std::erase_if(views, [state](const connector_view& v) { return !has_state(v, state); });
  return views;
}

/// The connector says RUNNING while one of its tasks is FAILED: the case operators miss.
inline bool is_degraded(const connector_view& view) {
  if (!view.found || view.connector.value.state != status_state::running) return false;
  for (const auto& t : view.tasks)
    if (t.value.state == status_state::failed) return true;
  return false;
}

}  // namespace status_store
