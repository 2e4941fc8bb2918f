#pragma once
// The REST listener's settings as the worker's are (config/setting_def.hpp): one row each, with
// Connect's names and defaults. parse_rest_settings applies the rows that stand alone (listeners,
// CORS, ...); the HTTPS listener's TLS settings and Basic auth are read by rest_tls_settings.cpp and
// rest_basic_auth.cpp, as their prefix and all-or-nothing rules do not fit one row per key. The rows
// are what check-config prints (effective_rest_config), docs/configuration.md's REST table, and decide
// whether each key is masked.
#include "config/rest_settings.hpp"
#include "config/setting_def.hpp"

#include <span>

namespace status_store {

std::span<const setting_def<rest_settings>> rest_setting_defs();

}  // namespace status_store
