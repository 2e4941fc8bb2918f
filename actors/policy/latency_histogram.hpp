#pragma once
// A latency histogram (put to acknowledgement, and each hop of the write path): log-linear, exact
// below 16 µs, then 16 buckets per power of two, so any quantile it reports is at most 6.25 % above
// the true value. Beside it, exact counts at the fixed bounds operators scrape as a Prometheus
// histogram (latency_bucket_bounds_us), and the sum. Fixed size, O(1) to record, no allocation: cheap
// enough to feed on every acknowledgement. Pure logic: no actor, no clock.
#include "messages/payloads.hpp"

#include <array>
#include <cstdint>

namespace status_store {

class latency_histogram {
 public:
  void record(uint64_t micros);

  uint64_t count() const { return count_; }
  uint64_t max() const { return max_; }
  uint64_t sum() const { return sum_; }
  /// A value at or above the q-quantile of what was recorded (q in [0, 1]): the upper edge of the
  /// bucket holding the ceil(q * count)-th smallest value, never more than max(). 0 when empty.
  uint64_t quantile(double q) const;
  /// How many recorded values are at or below latency_bucket_bounds_us[i]: exact, not estimated.
  uint64_t count_at_or_below(std::size_t bound) const;
  /// What operators see: the cumulative counts at every bound, count, sum, p50, p99, p99.9 and max
  /// (-1 each while empty).
  latency_distribution distribution() const;

  /// Index of the bucket that holds `micros`, and the largest value that bucket holds (exposed for
  /// the tests of the bucket arithmetic).
  static std::size_t bucket_of(uint64_t micros);
  static uint64_t bucket_upper_edge(std::size_t bucket);

 private:
  static constexpr unsigned sub_bucket_bits = 4;                       // 16 sub-buckets per power of two
  static constexpr std::size_t exact_buckets = 1u << sub_bucket_bits;  // values 0..15 exactly
  static constexpr std::size_t bucket_count = exact_buckets + (64 - sub_bucket_bits) * exact_buckets;

  std::array<uint64_t, bucket_count> buckets_{};
  // Values in (bound i-1, bound i] of latency_bucket_bounds_us; the last slot: above every bound.
  std::array<uint64_t, latency_bucket_bounds_us.size() + 1> between_bounds_{};
  uint64_t count_ = 0;
  uint64_t max_ = 0;
  uint64_t sum_ = 0;
};

}  // namespace status_store
