#include "app/commands.hpp"

#include "actors/kafka/librdkafka_settings_check.hpp"
#include "app/connection_config.hpp"
#include "app/rest/tls_context.hpp"
#include "config/rest_settings.hpp"
#include "config/worker_config.hpp"

#include <iostream>

namespace status_store::cli {

int check_config(const std::string& file) {
  const properties props = load_properties_file(file);
  std::vector<std::string> warnings;
  const worker_config config = parse_worker_config(props, &warnings);
  check_librdkafka_settings(config);
  // The REST listener's settings too, with the JAAS and credentials files they name, as `run` reads them.
  const rest_settings rest = parse_rest_settings(props, kafka_opts_from_environment());
  // And the HTTPS listeners' keystores and truststores, read as `run` reads them (a JKS file, a wrong
  // password or a key that does not match its certificate are refused here too).
  if (rest.tls && rest.has_https_listener()) (void)make_server_tls_context(*rest.tls);
  for (const auto& w : warnings) std::cerr << "warning: " << w << "\n";
  for (const auto& note : rest.notes) std::cerr << "warning: " << note << "\n";
  std::cout << "# effective configuration of " << file << " (defaults filled in, secrets masked)\n";
  for (const auto& [key, value] : effective_config(config)) std::cout << key << "=" << value << "\n";
  std::cout << "# REST listener (status-store run; without listeners it serves --listen)\n";
  for (const auto& [key, value] : effective_rest_config(rest)) std::cout << key << "=" << value << "\n";
  if (rest.basic_auth) {
    std::cout << "# Basic auth: " << rest.basic_auth->users.size() << " user(s) from "
              << rest.basic_auth->credentials_file << "\n";
  }
  return exit_ok;
}

}  // namespace status_store::cli
