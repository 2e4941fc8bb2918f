#pragma once
// `status-store run` as a child process of an interop test, on a real broker's status topic.
#include "child_process.hpp"

#include <memory>
#include <string>
#include <vector>

namespace status_store::interop {

/// `status-store run` on the shared status topic; its port is read from its stdout's line.
struct status_store_service {
  std::unique_ptr<child_process> process;
  int port = 0;

  /// `settings`: "key=value" for --set, e.g. topic.tracking.allow.reset=true.
  status_store_service(const std::string& bootstrap, const std::string& topic, const std::vector<std::string>& settings,
                       const std::string& log);
};

}  // namespace status_store::interop
