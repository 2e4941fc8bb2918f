#include "app/connection_config.hpp"

#include "actors/kafka/librdkafka_settings_check.hpp"
#include "config/config_error.hpp"
#include "config/logging.hpp"
#include "config/secret_masking.hpp"

#include <cstdlib>

namespace status_store::cli {

properties resolve_properties(const connection_options& options, const properties& verb_defaults) {
  properties props = verb_defaults;
  if (!options.config_file.empty())
    for (auto& [key, value] : load_properties_file(options.config_file)) props[key] = value;
  if (!options.bootstrap_servers.empty()) props["bootstrap.servers"] = options.bootstrap_servers;
  if (!options.topic.empty()) props["status.storage.topic"] = options.topic;
  for (const auto& kv : options.overrides) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw config_error("--set", std::string{masked_value},
                         "must have the form key=value (the argument is not shown: it may hold a secret)");
    props[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return props;
}

worker_config resolve_connection_config(const properties& props) {
  std::vector<std::string> warnings;
  worker_config config = parse_worker_config(props, &warnings);
  check_librdkafka_settings(config);
  auto log = component_logger("config");
  for (const auto& w : warnings) log->warn("{}", w);
  return config;
}

worker_config resolve_connection_config(const connection_options& options, const properties& verb_defaults) {
  return resolve_connection_config(resolve_properties(options, verb_defaults));
}

rest_settings resolve_rest_settings(const properties& props) {
  rest_settings settings = parse_rest_settings(props, kafka_opts_from_environment());
  auto log = component_logger("config");
  for (const auto& note : settings.notes) log->warn("{}", note);
  return settings;
}

rest_settings resolve_rest_settings(const connection_options& options) {
  return resolve_rest_settings(resolve_properties(options, {}));
}

std::string_view kafka_opts_from_environment() {
  const char* value = std::getenv("KAFKA_OPTS");
  return value == nullptr ? std::string_view{} : std::string_view{value};
}

}  // namespace status_store::cli
