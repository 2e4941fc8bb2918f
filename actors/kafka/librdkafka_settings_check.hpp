#pragma once
// The client settings status-store passes through (security.protocol, sasl.*, ssl.* and the
// producer./consumer./admin. overrides) are checked by librdkafka itself only when a client is
// created. Checking them when the configuration is read makes a bad one a configuration error
// (exit 2, naming the property as the worker file spells it) in check-config and every verb,
// rather than a start-up failure.
#include "config/worker_config.hpp"

namespace status_store {

/// Throws config_error naming the first pass-through setting the librdkafka it is built with refuses (unknown
/// name or invalid value), with librdkafka's reason; secret values are masked.
void check_librdkafka_settings(const worker_config& config);

}  // namespace status_store
