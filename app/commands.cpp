#include "app/commands.hpp"

#include "actors/kafka/librdkafka_settings_check.hpp"
#include "config/worker_config.hpp"

#include <iostream>

namespace status_store::cli {

int check_config(const std::string& file) {
  std::vector<std::string> warnings;
  const worker_config config = parse_worker_config(load_properties_file(file), &warnings);
  check_librdkafka_settings(config);
  for (const auto& w : warnings) std::cerr << "warning: " << w << "\n";
  std::cout << "# effective configuration of " << file << " (defaults filled in, secrets masked)\n";
  for (const auto& [key, value] : effective_config(config)) std::cout << key << "=" << value << "\n";
  return exit_ok;
}

}  // namespace status_store::cli
