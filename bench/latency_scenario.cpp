// Put-to-ack latency at a paced rate (half the raw ceiling by default, as the target is stated):
// the raw producer's figure is send() to delivery report; the store's is put() to acknowledgement,
// from its own ack-latency gauges (a histogram in the coalescer, at most 6.25 % high; the raw side
// uses the same histogram). Records differ: the store coalesces a busy key, so fewer records carry
// the same updates; every acknowledged record counts once on each side.
#include "bench_support.hpp"

#include <vector>

namespace status_store::bench {
namespace {

uint64_t latency_updates(const options& o) { return std::max<uint64_t>(o.updates / 4, 10000); }

nlohmann::json figures(double seconds, uint64_t sent, uint64_t acked, uint64_t p50, uint64_t p99, uint64_t max) {
  return {{"seconds", seconds}, {"updates", sent}, {"acknowledged", acked},
          {"p50_us", p50},      {"p99_us", p99},   {"max_us", max}};
}

}  // namespace

nlohmann::json latency_raw(const options& o) {
  const uint64_t n = latency_updates(o);
  std::vector<status_record> records;
  records.reserve(n);
  for (uint64_t i = 0; i < n; ++i) records.push_back(encode_connector_record(status_for(i, o.keys)));
  raw_producer producer{bench_config(o.bootstrap, "bench-latency-raw"), o.bootstrap};
  const auto start = clock_type::now();
  for (uint64_t i = 0; i < n; ++i) {
    pace(start, i, o.latency_rate);
    producer.send(records[i].key, &*records[i].value);
    producer.poll();
  }
  if (!producer.flush(std::chrono::minutes{10})) throw std::runtime_error("raw producer: flush timed out");
  const auto& h = producer.latency();
  return figures(seconds_since(start), n, producer.acknowledged(), h.quantile(0.5), h.quantile(0.99), h.max());
}

nlohmann::json latency_store(const options& o) {
  const uint64_t n = latency_updates(o);
  std::vector<connector_status> statuses;
  statuses.reserve(n);
  for (uint64_t i = 0; i < n; ++i) statuses.push_back(status_for(i, o.keys));
  store s{bench_config(o.bootstrap, "bench-latency-store")};
  const auto start = clock_type::now();
  for (uint64_t i = 0; i < n; ++i) {
    pace(start, i, o.latency_rate);
    s.put(statuses[i]);
  }
  if (!s.flush(std::chrono::minutes{10})) throw std::runtime_error("flush timed out");
  const double seconds = seconds_since(start);
  const auto c = s.metrics().counters;
  s.stop();
  return figures(seconds, n, c.success, static_cast<uint64_t>(c.ack_latency_p50_us),
                 static_cast<uint64_t>(c.ack_latency_p99_us), static_cast<uint64_t>(c.ack_latency_max_us));
}

}  // namespace status_store::bench
