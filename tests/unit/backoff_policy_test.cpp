// The KIP's backoff formula: exact values, bounds of the one-sided jitter, overflow safety, and a
// jitter source that replays the same sequence for the same seed.
#include "actors/policy/backoff_policy.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace status_store;
using namespace std::chrono_literals;

namespace {
/// Retry settings with these backoff fields (max_retries plays no part in a delay).
constexpr retry_settings backoff(int64_t initial_ms, int64_t max_ms, double multiplier, double jitter) {
  retry_settings r;
  r.initial_backoff_ms = initial_ms;
  r.max_backoff_ms = max_ms;
  r.backoff_multiplier = multiplier;
  r.jitter_factor = jitter;
  return r;
}
constexpr retry_settings kip_defaults = backoff(300, 10000, 2.0, 0.25);
constexpr retry_settings no_jitter = backoff(300, 10000, 2.0, 0.0);
}  // namespace

TEST(BackoffPolicy, WithoutJitterDoublesFromInitialUntilTheCap) {
  EXPECT_EQ(backoff_delay(no_jitter, 0, 0.9), 300ms);
  EXPECT_EQ(backoff_delay(no_jitter, 1, 0.9), 600ms);
  EXPECT_EQ(backoff_delay(no_jitter, 2, 0.9), 1200ms);
  EXPECT_EQ(backoff_delay(no_jitter, 3, 0.9), 2400ms);
  EXPECT_EQ(backoff_delay(no_jitter, 4, 0.9), 4800ms);
  EXPECT_EQ(backoff_delay(no_jitter, 5, 0.9), 9600ms);
  EXPECT_EQ(backoff_delay(no_jitter, 6, 0.9), 10000ms);
  EXPECT_EQ(backoff_delay(no_jitter, 60, 0.9), 10000ms);
}

TEST(BackoffPolicy, TheConfiguredDefaultsAreTheKips) {
  // retry_settings{} carries config/defaults.hpp, the one place the numbers live.
  for (uint32_t n : {0u, 1u, 5u, 6u, 30u})
    for (double u : {0.0, 0.5, 0.99})
      EXPECT_EQ(backoff_delay(retry_settings{}, n, u), backoff_delay(kip_defaults, n, u));
}

TEST(BackoffPolicy, JitterIsAddedOnTopOfTheCappedValue) {
  // final = capped + capped * jitter * u
  EXPECT_EQ(backoff_delay(kip_defaults, 0, 0.0), 300ms);
  EXPECT_EQ(backoff_delay(kip_defaults, 0, 0.5), 337500us);
  EXPECT_EQ(backoff_delay(kip_defaults, 2, 0.5), 1350ms);
  // At the cap the jitter still applies: the KIP's delay can exceed max.backoff.ms by up to 25 %.
  EXPECT_EQ(backoff_delay(kip_defaults, 10, 0.5), 11250ms);
  // u < 1, but rounding to whole nanoseconds makes max * (1 + jitter) itself reachable.
  EXPECT_LE(backoff_delay(kip_defaults, 10, std::nextafter(1.0, 0.0)), 12500ms);
  EXPECT_GT(backoff_delay(kip_defaults, 10, std::nextafter(1.0, 0.0)), 12499ms);
}

TEST(BackoffPolicy, EveryDelayLiesWithinTheFormulasBounds) {
  jitter_source jitter{123};
  for (uint32_t n = 0; n < 40; ++n) {
    const double capped_ms = std::min(300.0 * std::pow(2.0, n), 10000.0);
    for (int i = 0; i < 200; ++i) {
      const double d_ms =
          std::chrono::duration<double, std::milli>(backoff_delay(kip_defaults, n, jitter.next())).count();
      EXPECT_GE(d_ms, capped_ms);
      EXPECT_LE(d_ms, capped_ms * 1.25);
    }
  }
}

TEST(BackoffPolicy, HugeRetryCountsAndSettingsNeverOverflow) {
  const retry_settings huge = backoff(9223372036854775807LL, 9223372036854775807LL, 1e300, 1.0);
  EXPECT_EQ(backoff_delay(huge, 4000000000u, 0.99), max_schedulable_delay);
  EXPECT_EQ(backoff_delay(kip_defaults, 4000000000u, 0.0), 10000ms);  // pow() is +inf, min() caps it
  const retry_settings big_cap = backoff(300, 9223372036854775807LL, 2.0, 0.0);
  EXPECT_EQ(backoff_delay(big_cap, 200, 0.0), max_schedulable_delay);
}

TEST(BackoffPolicy, InitialAboveMaxIsCappedAtMax) {
  // Config validation forbids it; the formula still behaves (capped = max, jitter added).
  const retry_settings inverted = backoff(5000, 1000, 2.0, 0.0);
  EXPECT_EQ(backoff_delay(inverted, 0, 0.5), 1000ms);
}

TEST(BackoffPolicy, MultiplierOneGivesAConstantDelay) {
  const retry_settings constant = backoff(250, 10000, 1.0, 0.0);
  for (uint32_t n = 0; n < 100; n += 7) EXPECT_EQ(backoff_delay(constant, n, 0.3), 250ms);
}

TEST(BackoffPolicy, ZeroInitialBackoffRetriesImmediately) {
  const retry_settings zero = backoff(0, 0, 2.0, 0.25);
  EXPECT_EQ(backoff_delay(zero, 3, 0.7), 0ns);
}

TEST(JitterSource, SameSeedSameSequenceAndValuesInTheUnitInterval) {
  jitter_source a{42}, b{42}, c{43};
  std::set<double> seen;
  bool differs = false;
  for (int i = 0; i < 10000; ++i) {
    const double x = a.next();
    EXPECT_EQ(x, b.next());
    differs = differs || x != c.next();
    EXPECT_GE(x, 0.0);
    EXPECT_LT(x, 1.0);
    seen.insert(x);
  }
  EXPECT_TRUE(differs);
  EXPECT_GT(seen.size(), 9990u);  // not stuck
}

TEST(JitterSource, FirstValuesOfSeed42ArePinned) {
  // mt19937_64 is fully specified by the standard: these values are the same on every platform,
  // which is what makes a failing simulation seed replayable anywhere.
  std::mt19937_64 reference{42};
  jitter_source jitter{42};
  for (int i = 0; i < 3; ++i) EXPECT_EQ(jitter.next(), static_cast<double>(reference() >> 11) * 0x1.0p-53);
}
