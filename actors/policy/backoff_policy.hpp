#pragma once
// The KIP's backoff formula, as a pure function of the retry count and one uniform random number:
//
//   base   = initial × multiplier^retryCount
//   capped = min(base, max)
//   final  = capped + capped × jitter × u,   u ∈ [0, 1)
//
// The jitter is one-sided, as the KIP specifies: a delay never falls below the exponential curve and
// can exceed `max` by up to `jitter` (12.5 s with the defaults; the bound is inclusive once the delay
// is rounded to whole nanoseconds). Computed in double precision so a
// large retry count cannot overflow (pow saturates to +inf and min() brings it back to `max`).
// The parameters are the configured retry_settings themselves (defaults in config/defaults.hpp).
#include "config/retry_settings.hpp"

#include <chrono>
#include <cstdint>
#include <random>

namespace status_store {

/// Longest delay ever scheduled. A configured max.backoff.ms near max long would otherwise overflow
/// the clock's time_point; a year is "never" for a status update and still exact for sane values.
inline constexpr std::chrono::nanoseconds max_schedulable_delay = std::chrono::hours{24 * 365};

/// The delay before retry number `retry_count` (0 = the first retry), with `u` in [0, 1). Uses the
/// backoff fields of `retry`; max_retries is the coalescer's business.
std::chrono::nanoseconds backoff_delay(const retry_settings& retry, uint32_t retry_count, double u);

/// A seedable source of u ∈ [0, 1) for the jitter. mt19937_64's sequence is fixed by the standard and
/// the mapping below uses its top 53 bits, so a seed gives the same delays on every platform — tests
/// and the simulation replay a seed exactly.
class jitter_source {
 public:
  explicit jitter_source(uint64_t seed) : engine_(seed) {}
  double next() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace status_store
