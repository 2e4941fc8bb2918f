#include "actors/policy/latency_histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace status_store {

std::size_t latency_histogram::bucket_of(uint64_t micros) {
  if (micros < exact_buckets) return static_cast<std::size_t>(micros);
  // The highest set bit picks the power of two; the next sub_bucket_bits bits pick the sub-bucket.
  const unsigned exponent = static_cast<unsigned>(std::bit_width(micros)) - 1;  // >= sub_bucket_bits
  const unsigned shift = exponent - sub_bucket_bits;
  const auto sub = static_cast<std::size_t>((micros >> shift) & (exact_buckets - 1));
  return exact_buckets + shift * exact_buckets + sub;
}

uint64_t latency_histogram::bucket_upper_edge(std::size_t bucket) {
  if (bucket < exact_buckets) return bucket;
  const std::size_t shift = (bucket - exact_buckets) / exact_buckets;
  const uint64_t sub = (bucket - exact_buckets) % exact_buckets;
  const uint64_t lower = (exact_buckets + sub) << shift;
  return lower + ((uint64_t{1} << shift) - 1);
}

void latency_histogram::record(uint64_t micros) {
  ++buckets_[bucket_of(micros)];
  const auto bound = std::lower_bound(latency_bucket_bounds_us.begin(), latency_bucket_bounds_us.end(), micros);
  ++between_bounds_[static_cast<std::size_t>(bound - latency_bucket_bounds_us.begin())];
  ++count_;
  max_ = std::max(max_, micros);
  sum_ += micros;
}

uint64_t latency_histogram::quantile(double q) const {
  if (count_ == 0) return 0;
  const double clamped = std::clamp(q, 0.0, 1.0);
  const auto rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(clamped * static_cast<double>(count_))));
  uint64_t seen = 0;
  for (std::size_t b = 0; b < bucket_count; ++b) {
    seen += buckets_[b];
    if (seen >= rank) return std::min(bucket_upper_edge(b), max_);
  }
  return max_;
}

uint64_t latency_histogram::count_at_or_below(std::size_t bound) const {
  uint64_t n = 0;
  for (std::size_t i = 0; i <= bound && i < latency_bucket_bounds_us.size(); ++i) n += between_bounds_[i];
  return n;
}

latency_distribution latency_histogram::distribution() const {
  latency_distribution d;
  d.at_or_below.reserve(latency_bucket_bounds_us.size());
  uint64_t n = 0;
  for (std::size_t i = 0; i < latency_bucket_bounds_us.size(); ++i) d.at_or_below.push_back(n += between_bounds_[i]);
  d.count = count_;
  d.sum_us = sum_;
  if (count_ > 0) {
    d.p50_us = static_cast<int64_t>(quantile(0.50));
    d.p99_us = static_cast<int64_t>(quantile(0.99));
    d.p999_us = static_cast<int64_t>(quantile(0.999));
    d.max_us = static_cast<int64_t>(max_);
  }
  return d;
}

}  // namespace status_store
