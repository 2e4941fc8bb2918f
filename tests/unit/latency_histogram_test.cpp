// The latency histogram: bucket arithmetic (exact below 16, then at most 1/16 wide),
// quantiles against a sorted reference, the extremes, and the exact counts Prometheus scrapes.
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

TEST(LatencyHistogram, TheScrapedBucketsCountExactlyTheValuesAtOrBelowEachBound) {
  std::vector<uint64_t> values;
  for (const uint64_t bound : latency_bucket_bounds_us) {  // each bound, and either side of it
    values.push_back(bound - 1);
    values.push_back(bound);
    values.push_back(bound + 1);
  }
  values.push_back(0);
  values.push_back(latency_bucket_bounds_us.back() * 7);  // above every bound: +Inf only
  std::mt19937_64 random{25};
  std::lognormal_distribution<double> latency{std::log(3000.0), 2.0};
  for (int i = 0; i < 20000; ++i) values.push_back(static_cast<uint64_t>(latency(random)));
  latency_histogram h;
  uint64_t sum = 0;
  for (const uint64_t v : values) {
    h.record(v);
    sum += v;
  }
  const latency_distribution d = h.distribution();
  ASSERT_EQ(d.at_or_below.size(), latency_bucket_bounds_us.size());
  for (size_t i = 0; i < latency_bucket_bounds_us.size(); ++i) {
    const auto exact = static_cast<uint64_t>(
        std::count_if(values.begin(), values.end(), [&](uint64_t v) { return v <= latency_bucket_bounds_us[i]; }));
    EXPECT_EQ(h.count_at_or_below(i), exact) << latency_bucket_bounds_us[i];
    EXPECT_EQ(d.at_or_below[i], exact) << latency_bucket_bounds_us[i];
  }
  EXPECT_EQ(d.count, values.size());
  EXPECT_EQ(d.sum_us, sum);
  EXPECT_EQ(d.max_us, static_cast<int64_t>(latency_bucket_bounds_us.back() * 7));
  EXPECT_EQ(d.p50_us, static_cast<int64_t>(h.quantile(0.5)));
  EXPECT_EQ(d.p99_us, static_cast<int64_t>(h.quantile(0.99)));
  EXPECT_EQ(d.p999_us, static_cast<int64_t>(h.quantile(0.999)));
}

TEST(LatencyHistogram, AnEmptyDistributionHasZeroCountsAndNoQuantiles) {
  const latency_distribution d = latency_histogram{}.distribution();
  EXPECT_EQ(d.at_or_below, std::vector<uint64_t>(latency_bucket_bounds_us.size(), 0));
  EXPECT_EQ(d.count, 0u);
  EXPECT_EQ(d.sum_us, 0u);
  EXPECT_EQ(d.p50_us, -1);
  EXPECT_EQ(d.p99_us, -1);
  EXPECT_EQ(d.p999_us, -1);
  EXPECT_EQ(d.max_us, -1);
}

TEST(LatencyHistogram, TheBoundsRiseStrictly) {
  const auto* out_of_order = std::adjacent_find(latency_bucket_bounds_us.begin(), latency_bucket_bounds_us.end(),
                                                [](uint64_t a, uint64_t b) { return a >= b; });
  EXPECT_EQ(out_of_order, latency_bucket_bounds_us.end());
}
