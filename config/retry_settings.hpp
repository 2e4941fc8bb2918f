#pragma once
// The KIP's five retry settings (status.storage.retry.*), parsed and validated by
// config/worker_config.hpp. The one struct the retry scheduler and the coalescer are given, with the
// one set of defaults, config/defaults.hpp.
#include "config/defaults.hpp"

#include <cstdint>

namespace status_store {

struct retry_settings {
  int32_t max_retries = defaults::max_retries;                // [0, 2147483647]; retries, not attempts
  int64_t initial_backoff_ms = defaults::initial_backoff_ms;  // [0, max long]
  int64_t max_backoff_ms = defaults::max_backoff_ms;          // [0, max long], >= initial
  double backoff_multiplier = defaults::backoff_multiplier;   // [1.0, inf)
  double jitter_factor = defaults::jitter_factor;             // [0.0, 1.0]
};

}  // namespace status_store
