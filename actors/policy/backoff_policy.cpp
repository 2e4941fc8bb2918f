#include "actors/policy/backoff_policy.hpp"

#include <algorithm>
#include <cmath>

namespace status_store {

std::chrono::nanoseconds backoff_delay(const retry_settings& retry, uint32_t retry_count, double u) {
  const double initial = static_cast<double>(retry.initial_backoff_ms);
  const double cap = static_cast<double>(retry.max_backoff_ms);
  // pow() may return +inf for large exponents; min() turns that into the cap, never UB.
  const double base = initial * std::pow(retry.backoff_multiplier, static_cast<double>(retry_count));
  const double capped = std::min(base, cap);
  const double final_ms = capped + capped * retry.jitter_factor * u;
  const double limit_ms = std::chrono::duration<double, std::milli>(max_schedulable_delay).count();
  if (!(final_ms < limit_ms)) return max_schedulable_delay;  // also catches NaN
  // Round to whole nanoseconds: the scheduler and the tests both use this one function, so the
  // rounding is the same everywhere.
  return std::chrono::nanoseconds{std::llround(final_ms * 1e6)};
}

}  // namespace status_store
