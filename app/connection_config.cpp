#include "app/connection_config.hpp"

#include "actors/kafka/librdkafka_settings_check.hpp"
#include "config/config_error.hpp"
#include "config/logging.hpp"

namespace status_store::cli {

worker_config resolve_connection_config(const connection_options& options, const properties& verb_defaults) {
  properties props = verb_defaults;
  if (!options.config_file.empty())
    for (auto& [key, value] : load_properties_file(options.config_file)) props[key] = value;
  if (!options.bootstrap_servers.empty()) props["bootstrap.servers"] = options.bootstrap_servers;
  if (!options.topic.empty()) props["status.storage.topic"] = options.topic;
  for (const auto& kv : options.overrides) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) throw config_error("--set", kv, "must have the form key=value");
    props[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  std::vector<std::string> warnings;
  worker_config config = parse_worker_config(props, &warnings);
  check_librdkafka_settings(config);
  auto log = component_logger("config");
  for (const auto& w : warnings) log->warn("{}", w);
  return config;
}

rest_settings resolve_rest_settings(const connection_options&) { return {}; }  // STUB

}  // namespace status_store::cli
