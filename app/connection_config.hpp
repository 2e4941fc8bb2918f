#pragma once
// Builds the worker configuration of a CLI verb from, in increasing precedence: the verb's own
// defaults, the --config file, --bootstrap-servers, --topic, and each --set key=value; and the REST
// listener's settings from the same properties (with KAFKA_OPTS, as a Connect worker reads its JAAS
// file from there).
#include "app/commands.hpp"
#include "config/rest_settings.hpp"
#include "config/worker_config.hpp"

namespace status_store::cli {

/// The verb's properties: `verb_defaults`, then the --config file (read once), --bootstrap-servers,
/// --topic, --set. Throws config_error (exit 2) for an unreadable file or a malformed --set.
properties resolve_properties(const connection_options& options, const properties& verb_defaults);

/// parse_worker_config and the client library's checks of `props`, warnings logged. Throws config_error.
worker_config resolve_connection_config(const properties& props);

/// Both of the above. Throws config_error (exit 2) for a malformed --set or an invalid result.
worker_config resolve_connection_config(const connection_options& options, const properties& verb_defaults);

/// parse_rest_settings of `props` with the KAFKA_OPTS environment variable; its notes logged as
/// warnings. Throws config_error (exit 2).
rest_settings resolve_rest_settings(const properties& props);

/// resolve_rest_settings(resolve_properties(options, {})): reads the --config file again; a verb that
/// needs both configurations calls resolve_properties once and passes the result to both.
rest_settings resolve_rest_settings(const connection_options& options);

/// KAFKA_OPTS, or "" when it is not set.
std::string_view kafka_opts_from_environment();

}  // namespace status_store::cli
