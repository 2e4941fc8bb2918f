#pragma once
// What every benchmark scenario shares: the options, the status stream both sides send, the store's
// configuration, the raw librdkafka producer (the ceiling) and the clocks.
#include "actors/policy/latency_histogram.hpp"
#include "app/store/store.hpp"
#include "config/client_settings.hpp"
#include "messages/status_record_codec.hpp"

#include <librdkafka/rdkafka.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace status_store::bench {

using clock_type = std::chrono::steady_clock;

struct options {
  std::string bootstrap;  // empty: an in-process mock cluster owned by the orchestrator
  uint64_t updates = 1000000, keys = 10000, replay_records = 300000, memory_keys = 200000;
  // latency (latency_scenario.cpp): one point paced at latency_rate for latency_warmup_seconds, then
  // measured for latency_seconds; latency_point numbers the point's topics
  double latency_rate = 0, latency_seconds = 5, latency_warmup_seconds = 1;
  uint64_t latency_point = 0;
  // outage: every broker down for outage_seconds while outage_updates arrive over outage_keys keys
  double outage_seconds = 5;
  uint64_t outage_updates = 100000, outage_keys = 1000;
  // update storm: storm_updates over storm_keys keys, heap sampled as it goes
  uint64_t storm_updates = 2000000, storm_keys = 1000;
  // rebalance burst: this many connectors of 8 tasks go UNASSIGNED (putSafe), then RUNNING again
  uint64_t rebalance_connectors = 1000;
  // REST: rest_connectors connectors x rest_tasks tasks served by `status-store run`; rest_requests
  // timed GET /connectors?expand=status, rest_rounds timed rounds of one GET .../status per connector
  uint64_t rest_connectors = 1000, rest_tasks = 8, rest_requests = 100, rest_rounds = 10;
  // history: history_keys connectors with 16 transitions each, replayed with the history on and off
  uint64_t history_keys = 5000;
  // the incumbent: Kafka Connect's KafkaStatusBackingStore through tests/interop's Java driver
  // (real brokers only; empty: not run)
  std::string java_driver;
  std::string json_path = "bench/results/latest.json";
};

inline double seconds_since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}

/// Heap bytes in use: steady-state state, unlike RSS, which keeps every transient peak (mailbox
/// backlogs, fetch buffers) that malloc never returns to the system.
long heap_in_use();

worker_config bench_config(const std::string& bootstrap, const std::string& topic);

/// Update i of the stream: connector i % keys, generation i / keys (so every update differs).
connector_status status_for(uint64_t i, uint64_t keys);

/// A raw librdkafka producer with the status producer's settings (plus `extra`), delivery reports
/// served by poll(). Its reports feed a latency histogram (send to report) and a count of successes.
class raw_producer {
 public:
  raw_producer(const worker_config& config, const std::string& bootstrap, const kafka_settings& extra = {});
  ~raw_producer();
  raw_producer(const raw_producer&) = delete;
  raw_producer& operator=(const raw_producer&) = delete;

  /// Sends one record (a tombstone when `value` is null), serving reports while the queue is full.
  void send(const std::string& key, const std::string* value);
  /// Sends one record whose report goes to the observer with `tag` (not timed here); while the queue
  /// is full it waits for another thread's poll() to make room.
  void send_tagged(std::string_view key, std::string_view value, uint64_t tag);
  /// From now on every report goes to `observer` (tag, acknowledged?) on the thread that polls.
  void observe_reports(std::function<void(uint64_t tag, bool acknowledged)> observer) {
    observer_ = std::move(observer);
  }
  void poll(int timeout_ms = 0) { rd_kafka_poll(rk_, timeout_ms); }
  /// Waits until every record is reported; true if all were within `timeout`.
  bool flush(std::chrono::milliseconds timeout);

  uint64_t acknowledged() const { return acknowledged_; }
  uint64_t failed() const { return failed_; }
  const latency_histogram& latency() const { return latency_; }

 private:
  static void on_report(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque);

  rd_kafka_t* rk_ = nullptr;
  rd_kafka_topic_t* topic_ = nullptr;
  uint64_t acknowledged_ = 0;
  uint64_t failed_ = 0;
  latency_histogram latency_;
  std::function<void(uint64_t, bool)> observer_;
};

/// The raw ceiling of the throughput and replay scenarios: `count` records of the stream as fast as
/// librdkafka takes them (every 97th a tombstone with `tombstones`); seconds until all are reported.
double raw_produce(const worker_config& config, const std::string& bootstrap, uint64_t count, uint64_t keys,
                   bool tombstones = false);

/// The JSON object on the last non-empty line of a child's output (what came before is logging).
nlohmann::json last_json_line(std::string output);

/// Sleeps until `start + i / rate` (pacing a stream at `rate` per second); checked every 64 sends.
void pace(clock_type::time_point start, uint64_t i, double rate);

// ---- the scenarios in files of their own; each runs in a child process and returns its figures ------
/// One point of the latency scenario (latency_scenario.cpp): put -> latest durable at a steady rate.
nlohmann::json latency_raw(const options& o);
nlohmann::json latency_store(const options& o);
/// Every point of the latency scenario, both sides, each in a child process (latency_report.cpp).
nlohmann::json run_latency_points(const std::string& binary, const options& o, double store_max_rate,
                                  double raw_max_rate);
/// Prints the rows of results["latency"], adds its ratios to results["ratios"] and writes the data of
/// the p99-against-rate plot beside `json_path` (NAME-latency.tsv).
void report_latency(nlohmann::json& results, const std::string& json_path);
nlohmann::json outage(const options& o, bool coalescing);
/// How the throughput run hands its updates over: one `put` each, `put_all` of the statuses, or
/// `put_all` of updates the caller builds with make_update; the two put_all ways 1,000 a call.
enum class put_way { single, all_statuses, all_built };
nlohmann::json store_throughput(const options& o, put_way way);
nlohmann::json update_storm(const options& o);
nlohmann::json rebalance_burst_store(const options& o);
/// GET /connectors?expand=status beside one GET .../status per connector (rest_expand_scenario.cpp).
nlohmann::json rest_expand(const options& o);
/// history-write, history-on, history-off (history_scenario.cpp), and the rows they print.
nlohmann::json history_child(const std::string& mode, const options& o);
void print_history_rows(nlohmann::json& results, const options& o);
/// Runs `java -jar <driver> ARGS` and returns the JSON of its last line (incumbent_scenario.cpp).
nlohmann::json run_incumbent(const options& o, const std::string& args);

}  // namespace status_store::bench
