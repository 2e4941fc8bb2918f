// Update storm: many updates to few keys (2,000,000 over 1,000 by default) through put(). Memory must
// be bounded by keys, not updates: the heap in use is sampled after a flush at each quarter (steady
// state) and, without flushing, every 65,536 puts (the peak, which includes the mailbox backlog of a
// caller that puts faster than the coalescer takes updates in: put() never blocks).
#include "bench_support.hpp"

#include <algorithm>

namespace status_store::bench {

nlohmann::json update_storm(const options& o) {
  store s{bench_config(o.bootstrap, "bench-storm")};
  const long base = heap_in_use();
  long peak = 0;
  nlohmann::json settled = nlohmann::json::array();
  const auto start = clock_type::now();
  for (uint64_t i = 0; i < o.storm_updates; ++i) {
    s.put(status_for(i, o.storm_keys));
    if ((i & 65535) == 65535) peak = std::max(peak, heap_in_use() - base);
    if ((i + 1) % (o.storm_updates / 4) == 0) {
      if (!s.flush(std::chrono::minutes{10})) throw std::runtime_error("flush timed out");
      settled.push_back({{"updates", i + 1}, {"heap_bytes", heap_in_use() - base}});
    }
  }
  const double seconds = seconds_since(start);
  const auto c = s.metrics().counters;
  s.stop();
  const long first = settled.front()["heap_bytes"].get<long>();
  const long last = settled.back()["heap_bytes"].get<long>();
  return {{"updates", o.storm_updates},
          {"keys", o.storm_keys},
          {"seconds", seconds},
          {"records", c.success},
          {"settled", settled},
          {"growth_first_to_last_quarter_bytes", last - first},
          {"peak_unsettled_heap_bytes", peak}};
}

}  // namespace status_store::bench
