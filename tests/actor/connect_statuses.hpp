#pragma once
// The statuses the Connect-derived actor tests write: one connector "conn", its task 0, and the two
// workers of Connect's own tests.
#include "messages/status.hpp"

#include <optional>
#include <string>

namespace status_store::testing {

inline const std::string worker = "localhost:8083";
inline const std::string other_worker = "localhost:8084";

inline connector_status conn(status_state state, std::string w, int32_t generation) {
  return connector_status{"conn", status_value{state, std::nullopt, std::move(w), generation}};
}
inline task_status task0(status_state state, std::string w, int32_t generation) {
  return task_status{"conn", 0, status_value{state, std::nullopt, std::move(w), generation}};
}

}  // namespace status_store::testing
