// A cooperative rebalance as a worker reports it: C connectors x 8 tasks, every task RUNNING on
// worker-a at generation 1, are revoked (UNASSIGNED through putSafe, as Connect's Worker does when it
// stops a task) and at once assigned again (RUNNING on worker-b at generation 2). Timed from the first
// putSafe until every key's latest status is acknowledged (flush); records written are counted on the
// topic (end offsets before and after). Kafka Connect's Java store runs the same burst through
// tests/interop's driver (`bench-rebalance`) on the same broker.
#include "actors/kafka/topic_snapshot.hpp"
#include "bench_support.hpp"

#include <unistd.h>
#include <stdexcept>

namespace status_store::bench {

namespace {

constexpr int tasks_per_connector = 8;

task_status task(uint64_t connector, int id, status_state state, const char* worker, int32_t generation) {
  return task_status{"bench-connector-" + std::to_string(connector), id, status_value{state, {}, worker, generation}};
}

uint64_t records_on(const worker_config& config, const std::string& bootstrap, const std::string& topic) {
  kafka_settings settings = consumer_settings(config);
  settings.emplace_back("bootstrap.servers", bootstrap);
  return read_topic_to_end(settings, topic, std::chrono::minutes{5}).records;
}

}  // namespace

nlohmann::json rebalance_burst_store(const options& o) {
  const std::string topic = "bench-rebalance-store";
  const auto config = bench_config(o.bootstrap, topic);
  store s{config};
  const uint64_t keys = o.rebalance_connectors * tasks_per_connector;
  for (uint64_t c = 0; c < o.rebalance_connectors; ++c)
    for (int t = 0; t < tasks_per_connector; ++t) s.put(task(c, t, status_state::running, "worker-a:8083", 1));
  if (!s.flush(std::chrono::minutes{5})) throw std::runtime_error("rebalance: the statuses before it were not written");
  // putSafe decides on what the store knows: wait until it has read its own records back, as a
  // worker's store has long before a rebalance.
  while (s.metrics().view.records_read < keys) usleep(20000);
  const uint64_t before = records_on(config, o.bootstrap, topic);
  const auto start = clock_type::now();
  for (uint64_t c = 0; c < o.rebalance_connectors; ++c)
    for (int t = 0; t < tasks_per_connector; ++t) s.put_safe(task(c, t, status_state::unassigned, "worker-a:8083", 1));
  for (uint64_t c = 0; c < o.rebalance_connectors; ++c)
    for (int t = 0; t < tasks_per_connector; ++t) s.put(task(c, t, status_state::running, "worker-b:8083", 2));
  if (!s.flush(std::chrono::minutes{5})) throw std::runtime_error("rebalance: flush timed out");
  const double seconds = seconds_since(start);
  const auto m = s.metrics().counters;
  s.stop();
  return {{"keys", keys},
          {"seconds", seconds},
          {"records", records_on(config, o.bootstrap, topic) - before},
          {"failures", m.failure},
          {"dropped_stale", m.dropped_stale}};
}

}  // namespace status_store::bench
