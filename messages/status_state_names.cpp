// Connect's state names (AbstractStatus.State): Java's Enum.name() / Enum.valueOf, exact and
// case-sensitive.
#include "messages/status.hpp"

#include <array>
#include <utility>

namespace status_store {

namespace {

constexpr std::array<std::pair<status_state, std::string_view>, 7> state_names{{
    {status_state::unassigned, "UNASSIGNED"},
    {status_state::running, "RUNNING"},
    {status_state::paused, "PAUSED"},
    {status_state::failed, "FAILED"},
    {status_state::destroyed, "DESTROYED"},
    {status_state::restarting, "RESTARTING"},
    {status_state::stopped, "STOPPED"},
}};

}  // namespace

std::string_view to_string(status_state state) {
  for (const auto& [s, name] : state_names) {
    if (s == state) return name;
  }
  return {};  // not an enumerator (a cast gone wrong); decodes as an unknown state
}

std::optional<status_state> parse_status_state(std::string_view name) {
  // Java's Enum.valueOf: exact, case-sensitive name.
  for (const auto& [s, n] : state_names) {
    if (n == name) return s;
  }
  return std::nullopt;
}

}  // namespace status_store
