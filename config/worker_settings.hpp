#pragma once
// The worker's settings as one ConfigDef-style table (config/setting_def.hpp): parse_worker_config
// reads and validates them from it, effective_config prints them from it, docs/configuration.md's
// table is it (a unit test keeps the two equal).
#include "config/setting_def.hpp"
#include "config/worker_config.hpp"

#include <span>

namespace status_store {

/// Every setting of the worker with a meaning of its own, in the order they are validated.
std::span<const setting_def<worker_config>> worker_settings();

}  // namespace status_store
