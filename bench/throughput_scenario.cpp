// Throughput: U updates over K keys through the facade as fast as it accepts them, until every one
// is resolved (acknowledged or coalesced); the raw producer's records/s beside it is the yardstick.
#include "bench_support.hpp"

#include "messages/status_updates.hpp"

#include <algorithm>
#include <span>
#include <utility>

namespace status_store::bench {

/// U updates through the facade until all are resolved, handed over `way` (put_all: one lock of the
/// ingest table per call). The statuses are built before the clock starts.
nlohmann::json store_throughput(const options& o, put_way way) {
  std::vector<connector_status> statuses;
  statuses.reserve(o.updates);
  for (uint64_t i = 0; i < o.updates; ++i) statuses.push_back(status_for(i, o.keys));
  store s{bench_config(o.bootstrap, "bench-throughput-store")};
  const auto start = clock_type::now();
  if (way == put_way::all_built) {
    std::vector<status_update> batch;
    for (auto& st : statuses) {
      batch.push_back(make_update(st));
      if (batch.size() == 1000) s.put_all(std::exchange(batch, {}));
    }
    s.put_all(std::move(batch));
  } else if (way == put_way::all_statuses) {
    for (std::span<const connector_status> rest{statuses}; !rest.empty();) {
      const auto call = rest.first(std::min<std::size_t>(rest.size(), 1000));
      s.put_all(call);
      rest = rest.subspan(call.size());
    }
  } else {
    for (auto& st : statuses) s.put(st);
  }
  const double accepted_after = seconds_since(start);
  if (!s.flush(std::chrono::minutes{10})) throw std::runtime_error("flush timed out");
  const double total = seconds_since(start);
  auto m = s.metrics().counters;
  s.stop();
  return {{"seconds", total},     {"accept_seconds", accepted_after}, {"updates", m.accepted},
          {"records", m.success}, {"coalesced", m.coalesced},         {"failures", m.failure}};
}

}  // namespace status_store::bench
