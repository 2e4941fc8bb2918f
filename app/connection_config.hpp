#pragma once
// Builds the worker configuration of a CLI verb from, in increasing precedence: the verb's own
// defaults, the --config file, --bootstrap-servers, --topic, and each --set key=value.
#include "app/commands.hpp"
#include "config/rest_settings.hpp"
#include "config/worker_config.hpp"

namespace status_store::cli {

/// Throws config_error (exit 2) for a malformed --set or an invalid result.
worker_config resolve_connection_config(const connection_options& options, const properties& verb_defaults);

/// The REST listener's settings from the same sources (KAFKA_OPTS for the JAAS file). Throws config_error.
rest_settings resolve_rest_settings(const connection_options& options);

}  // namespace status_store::cli
