#include "status_store_service.hpp"

#include <chrono>
#include <regex>
#include <stdexcept>
#include <thread>

namespace status_store::interop {

using namespace std::chrono_literals;

status_store_service::status_store_service(const std::string& bootstrap, const std::string& topic,
                                           const std::vector<std::string>& settings, const std::string& log) {
  std::vector<std::string> command{STATUS_STORE_BINARY_DIR "/status-store",
                                   "run",
                                   "--bootstrap-servers",
                                   bootstrap,
                                   "--topic",
                                   topic,
                                   "--listen",
                                   "127.0.0.1:0",
                                   "--set",
                                   "status.storage.replication.factor=1"};
  for (const auto& setting : settings) {
    command.push_back("--set");
    command.push_back(setting);
  }
  process = std::make_unique<child_process>(command, log);
  // stdout's line once the store has started (the log says "listening on" before the replay)
  const std::regex listening{"status-store running: .*HTTP on http://127\\.0\\.0\\.1:([0-9]+)"};
  for (int i = 0; i < 600 && process->running(); ++i) {
    std::smatch m;
    const std::string text = process->log();
    if (std::regex_search(text, m, listening)) {
      port = std::stoi(m[1]);
      return;
    }
    std::this_thread::sleep_for(100ms);
  }
  throw std::runtime_error("status-store run did not start:\n" + process->log());
}

}  // namespace status_store::interop
