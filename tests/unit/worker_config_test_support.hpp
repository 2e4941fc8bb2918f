#pragma once
// What the worker_config_*_test.cpp files share: the smallest valid configuration and how to get the
// error or the warnings parse_worker_config gives for one.
#include "config/config_error.hpp"
#include "config/worker_config.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace status_store {

inline constexpr const char* topic_setting = "status.storage.topic";

/// The smallest valid configuration plus `extra`.
inline properties with(properties extra) {
  extra.emplace(topic_setting, "connect-status");
  return extra;
}

/// The config_error parse_worker_config throws for `props`; fails the test if it does not throw.
inline std::optional<config_error> error_for(const properties& props) {
  try {
    parse_worker_config(props);
  } catch (const config_error& error) {
    return error;
  }
  ADD_FAILURE() << "expected a config_error";
  return std::nullopt;
}

inline std::vector<std::string> warnings_for(const properties& props) {
  std::vector<std::string> warnings;
  parse_worker_config(props, &warnings);
  return warnings;
}

inline bool contains(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

inline std::string unknown_key_warning(const std::string& key) {
  return "Unknown configuration '" + key + "' was supplied but isn't a known config.";
}

}  // namespace status_store
