#pragma once
// One named spdlog logger per component ("status-store.coalescer", ...), so a log line at 3 a.m.
// says which part of the store wrote it. Loggers write to stderr; the level is global.
#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace status_store {

/// The logger named "status-store.<component>", created on first use; thread-safe.
std::shared_ptr<spdlog::logger> component_logger(const std::string& component);

/// Sets the level of every status-store logger, present and future ("trace".."off").
void set_log_level(spdlog::level::level_enum level);

}  // namespace status_store
