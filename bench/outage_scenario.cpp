// Outage: every broker of an in-process mock cluster (one per run, owned by this child) down for T
// seconds while U updates arrive evenly over K keys, then up again. Measured from the moment the
// brokers are back: records written, and time until every key's latest value is acknowledged.
// Two writers see the same stream:
//   coalescing  status-store with its defaults (retries with backoff, latest value per key);
//   in order    every update written, in order, as Connect does: a raw producer that retries until
//               delivered (Connect re-sends each record on a retriable error, with no limit).
#include "bench_support.hpp"

#include "actors/kafka/mock_cluster.hpp"

#include <thread>
#include <vector>

namespace status_store::bench {

nlohmann::json outage(const options& o, bool coalescing) {
  mock_cluster mock{3};
  const std::string topic = "bench-outage";
  mock.create_topic(topic, 6, 1);
  const std::string bootstrap = mock.bootstrap_servers();
  const auto config = bench_config(bootstrap, topic);
  const double rate = static_cast<double>(o.outage_updates) / o.outage_seconds;
  const auto outage_length =
      std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(o.outage_seconds));

  std::vector<connector_status> statuses;
  statuses.reserve(o.outage_updates);
  for (uint64_t i = 0; i < o.outage_updates; ++i) statuses.push_back(status_for(i, o.outage_keys));

  nlohmann::json result{{"outage_seconds", o.outage_seconds}, {"updates", o.outage_updates}, {"keys", o.outage_keys}};
  if (coalescing) {
    store s{config};
    mock.set_broker_down();
    const auto start = clock_type::now();
    for (uint64_t i = 0; i < o.outage_updates; ++i) {
      pace(start, i, rate);
      s.put(statuses[i]);
    }
    std::this_thread::sleep_until(start + outage_length);
    const auto before = s.metrics().counters;
    mock.set_broker_up();
    const auto recovered = clock_type::now();
    if (!s.flush(std::chrono::minutes{10})) throw std::runtime_error("flush timed out");
    const double recovery = seconds_since(recovered);
    const auto after = s.metrics().counters;
    s.stop();
    result.update({{"records_after_recovery", after.success - before.success},
                   {"records_during_outage", before.success},
                   {"seconds_to_latest", recovery},
                   {"retries", after.retry},
                   {"failures", after.failure}});
    return result;
  }
  // Connect's producer keeps every record until delivered; unbounded retries and a queue that holds
  // the whole outage's worth (librdkafka's default of 100,000 messages would block the sender).
  raw_producer producer{config,
                        bootstrap,
                        {{"retries", "2147483647"},
                         {"message.timeout.ms", "600000"},
                         {"queue.buffering.max.messages", "10000000"},
                         {"log_level", "2"}}};  // the outage's connection errors are expected
  std::vector<status_record> records;
  records.reserve(statuses.size());
  for (const auto& st : statuses) records.push_back(encode_connector_record(st));
  mock.set_broker_down();
  const auto start = clock_type::now();
  for (uint64_t i = 0; i < o.outage_updates; ++i) {
    pace(start, i, rate);
    producer.send(records[i].key, &*records[i].value);
    producer.poll();
  }
  std::this_thread::sleep_until(start + outage_length);
  producer.poll();
  const uint64_t before = producer.acknowledged();
  mock.set_broker_up();
  const auto recovered = clock_type::now();
  if (!producer.flush(std::chrono::minutes{10})) throw std::runtime_error("in-order producer: flush timed out");
  const double recovery = seconds_since(recovered);
  result.update({{"records_after_recovery", producer.acknowledged() - before},
                 {"records_during_outage", before},
                 {"seconds_to_latest", recovery},
                 {"failures", producer.failed()}});
  return result;
}

}  // namespace status_store::bench
