#include "config/logging.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <mutex>

namespace status_store {

namespace {
std::mutex registry_mutex;  // spdlog throws if two threads register the same name at once
}

std::shared_ptr<spdlog::logger> component_logger(const std::string& component) {
  const std::string name = "status-store." + component;
  std::lock_guard<std::mutex> guard{registry_mutex};
  if (auto existing = spdlog::get(name)) return existing;
  auto logger = spdlog::stderr_color_mt(name);
  logger->set_level(spdlog::get_level());  // follow the global level set by set_log_level
  return logger;
}

void set_log_level(spdlog::level::level_enum level) {
  std::lock_guard<std::mutex> guard{registry_mutex};
  spdlog::set_level(level);  // applies to all registered loggers and becomes the default
}

}  // namespace status_store
