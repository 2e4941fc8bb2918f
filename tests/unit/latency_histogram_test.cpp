// The put-to-ack latency histogram: bucket arithmetic (exact below 16, then at most 1/16 wide),
// quantiles against a sorted reference, and the extremes.
#include "actors/policy/latency_histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace status_store;

TEST(LatencyHistogram, EmptyReportsZero) {
  latency_histogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.quantile(0.5), 0u);
  EXPECT_EQ(h.quantile(0.99), 0u);
  EXPECT_EQ(h.max(), 0u);
}

TEST(LatencyHistogram, EveryValueLiesInABucketAtMostOneSixteenthWide) {
  std::vector<uint64_t> values{0,
                               1,
                               15,
                               16,
                               17,
                               31,
                               32,
                               33,
                               1000,
                               65535,
                               65536,
                               1'000'000,
                               std::numeric_limits<uint64_t>::max() / 3,
                               std::numeric_limits<uint64_t>::max()};
  std::mt19937_64 random{7};
  for (int i = 0; i < 10000; ++i) values.push_back(random() >> (random() % 64));
  for (const uint64_t v : values) {
    const std::size_t b = latency_histogram::bucket_of(v);
    const uint64_t upper = latency_histogram::bucket_upper_edge(b);
    EXPECT_GE(upper, v);
    if (v < 16) {
      EXPECT_EQ(upper, v);
    } else {
      EXPECT_LE(static_cast<double>(upper - v), static_cast<double>(v) / 16.0) << v;
    }
    if (b > 0) {
      EXPECT_LT(latency_histogram::bucket_upper_edge(b - 1), v) << v;  // buckets are contiguous
    }
  }
}

TEST(LatencyHistogram, QuantilesAreWithinASixteenthAboveTheExactOnes) {
  std::mt19937_64 random{20261129};
  std::lognormal_distribution<double> latency{std::log(800.0), 0.9};  // µs, a long right tail
  latency_histogram h;
  std::vector<uint64_t> exact;
  for (int i = 0; i < 100'000; ++i) {
    const auto v = static_cast<uint64_t>(latency(random));
    h.record(v);
    exact.push_back(v);
  }
  std::sort(exact.begin(), exact.end());
  for (const double q : {0.0, 0.5, 0.9, 0.99, 0.999, 1.0}) {
    const auto rank = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(q * exact.size())));
    const uint64_t truth = exact[rank - 1];
    EXPECT_GE(h.quantile(q), truth) << q;
    EXPECT_LE(static_cast<double>(h.quantile(q)), static_cast<double>(truth) * (1.0 + 1.0 / 16.0)) << q;
  }
  EXPECT_EQ(h.max(), exact.back());
  EXPECT_EQ(h.quantile(1.0), exact.back());
  EXPECT_EQ(h.count(), exact.size());
}

TEST(LatencyHistogram, ASingleSlowAckShowsInMaxAndTheTopQuantileOnly) {
  latency_histogram h;
  for (int i = 0; i < 999; ++i) h.record(1000);
  h.record(5'000'000);
  EXPECT_LE(h.quantile(0.5), 1000u + 1000u / 16);
  EXPECT_LE(h.quantile(0.99), 1000u + 1000u / 16);
  EXPECT_EQ(h.quantile(1.0), 5'000'000u);
  EXPECT_EQ(h.max(), 5'000'000u);
}
