// status-store benchmarks, side by side in one run on the same cluster (an in-process librdkafka mock
// cluster by default, a real one with --bootstrap-servers):
//   throughput  U updates over K keys through the facade, as fast as accepted, until all are
//               acknowledged — beside a raw librdkafka producer sending the very same keys and bytes
//               with the same producer settings (the ceiling);
//   replay      a topic of R records (every 97th a tombstone) read to its end by a store's start-up
//               replay — beside a raw consumer reading the same topic (the ceiling);
//   memory      heap bytes in use per tracked key at steady state: K distinct keys written and read
//               back by a store, minus the same records written by the raw producer (so the mock's
//               own storage of the records cancels out).
// Each measurement runs in a child process of its own (same binary, --child MODE), so memory figures
// and allocator state never mix. Prints a table of ratios and writes the raw figures as JSON.
#include "actors/kafka_topic_reader.hpp"
#include "app/mock_cluster.hpp"
#include "app/status_store.hpp"
#include "config/client_settings.hpp"
#include "config/logging.hpp"
#include "messages/status_record_codec.hpp"
#include "messages/status_updates.hpp"

#include <librdkafka/rdkafka.h>
#include <malloc.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace status_store;
using clock_type = std::chrono::steady_clock;

namespace {

struct options {
  std::string bootstrap;  // empty: an in-process mock cluster owned by the orchestrator
  uint64_t updates = 1000000, keys = 10000, replay_records = 300000, memory_keys = 200000;
  std::string json_path = "bench/results/latest.json";
};

double seconds_since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

/// Heap bytes in use. Steady-state state, unlike RSS, which keeps every transient peak (mailbox
/// backlogs, fetch buffers) that malloc never returns to the system.
long heap_in_use() { return static_cast<long>(mallinfo2().uordblks); }

worker_config bench_config(const std::string& bootstrap, const std::string& topic) {
  return parse_worker_config({{"bootstrap.servers", bootstrap},
                              {"group.id", "bench"},
                              {"status.storage.topic", topic},
                              {"status.storage.partitions", "6"},
                              {"status.storage.replication.factor", "1"}});
}

connector_status status_for(uint64_t i, uint64_t keys) {
  return connector_status{"bench-connector-" + std::to_string(i % keys),
                          status_value{i % 5 ? status_state::running : status_state::paused, std::nullopt,
                                       "bench-worker-1:8083", static_cast<int32_t>(i / keys)}};
}

/// The raw ceiling: the status producer's settings, the same records, reports served inline.
double raw_produce(const worker_config& config, const std::string& bootstrap, uint64_t count, uint64_t keys,
                   bool tombstones = false) {
  kafka_settings settings = producer_settings(config);
  settings.emplace_back("bootstrap.servers", bootstrap);
  char errstr[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  for (auto& [k, v] : settings) rd_kafka_conf_set(conf, k.c_str(), v.c_str(), errstr, sizeof errstr);
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  rd_kafka_topic_t* topic = rd_kafka_topic_new(rk, config.status_topic.c_str(), nullptr);
  std::vector<status_record> records;
  records.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    auto r = encode_connector_record(status_for(i, keys));
    if (tombstones && i % 97 == 96) r.value.reset();
    records.push_back(std::move(r));
  }
  const auto start = clock_type::now();
  for (uint64_t i = 0; i < count; ++i) {
    auto& r = records[i];
    while (rd_kafka_produce(topic, RD_KAFKA_PARTITION_UA, RD_KAFKA_MSG_F_COPY,
                            r.value ? r.value->data() : nullptr, r.value ? r.value->size() : 0, r.key.data(),
                            r.key.size(), nullptr) != 0)
      rd_kafka_poll(rk, 1);  // queue full: serve reports, then go on
    if ((i & 1023) == 0) rd_kafka_poll(rk, 0);
  }
  rd_kafka_flush(rk, 600000);
  const double elapsed = seconds_since(start);
  rd_kafka_topic_destroy(topic);
  rd_kafka_destroy(rk);
  return elapsed;
}

/// U updates through the facade until all are resolved: one `put` each, or `put_all` in batches of
/// 1,000 (one actor message per batch). The statuses are built before the clock starts.
nlohmann::json store_throughput(const options& o, bool batched) {
  std::vector<connector_status> statuses;
  statuses.reserve(o.updates);
  for (uint64_t i = 0; i < o.updates; ++i) statuses.push_back(status_for(i, o.keys));
  store s{bench_config(o.bootstrap, "bench-throughput-store")};
  const auto start = clock_type::now();
  if (batched) {
    std::vector<status_update> batch;
    for (auto& st : statuses) {
      batch.push_back(make_update(st));
      if (batch.size() == 1000) s.put_all(std::exchange(batch, {}));
    }
    s.put_all(std::move(batch));
  } else {
    for (auto& st : statuses) s.put(st);
  }
  const double accepted_after = seconds_since(start);
  if (!s.flush(std::chrono::minutes{10})) throw std::runtime_error("flush timed out");
  const double total = seconds_since(start);
  auto m = s.metrics().counters;
  s.stop();
  return {{"seconds", total},       {"accept_seconds", accepted_after}, {"updates", m.accepted},
          {"records", m.success}, {"coalesced", m.coalesced},         {"failures", m.failure}};
}

// ---- children: one measurement each, printed as a JSON line on stdout ----------------------------------

nlohmann::json child(const std::string& mode, const options& o) {
  set_log_level(spdlog::level::warn);
  if (mode == "throughput-raw") {
    auto config = bench_config(o.bootstrap, "bench-throughput-raw");
    const double s = raw_produce(config, o.bootstrap, o.updates, o.keys);
    return {{"seconds", s}, {"records", o.updates}};
  }
  if (mode == "throughput-store" || mode == "throughput-store-batched") {
    return store_throughput(o, mode == "throughput-store-batched");
  }
  if (mode == "replay-write") {
    auto config = bench_config(o.bootstrap, "bench-replay");
    const double s = raw_produce(config, o.bootstrap, o.replay_records, o.keys, true);
    return {{"seconds", s}};
  }
  if (mode == "replay-raw") {
    auto config = bench_config(o.bootstrap, "bench-replay");
    kafka_settings settings = consumer_settings(config);
    settings.emplace_back("bootstrap.servers", o.bootstrap);
    const auto start = clock_type::now();
    auto contents = read_topic_to_end(settings, "bench-replay", std::chrono::minutes{10});
    return {{"seconds", seconds_since(start)}, {"records", contents.records}};
  }
  if (mode == "replay-store") {
    store s{bench_config(o.bootstrap, "bench-replay")};
    auto v = s.metrics().view;
    s.stop();
    return {{"seconds", static_cast<double>(v.replay_ms) / 1000.0}, {"records", v.replay_records}};
  }
  if (mode == "memory-raw" || mode == "memory-store") {
    const std::string topic = "bench-memory-" + mode.substr(7);
    auto config = bench_config(o.bootstrap, topic);
    const long before = heap_in_use();
    if (mode == "memory-raw") {
      raw_produce(config, o.bootstrap, o.memory_keys, o.memory_keys);
      return {{"heap_growth_bytes", heap_in_use() - before}};
    }
    store s{config};
    const long started = heap_in_use();
    for (uint64_t i = 0; i < o.memory_keys; ++i) s.put(status_for(i, o.memory_keys));
    if (!s.flush(std::chrono::minutes{10})) throw std::runtime_error("flush timed out");
    // Wait until the view has read every key back: it tracks them too.
    while (s.metrics().view.records_read < o.memory_keys) usleep(50000);
    usleep(500000);  // let librdkafka release what it buffered for the last fetches and sends
    const long grown = heap_in_use() - started;
    s.stop();
    return {{"heap_growth_bytes", grown}, {"store_start_bytes", started - before}};
  }
  throw std::runtime_error("unknown mode " + mode);
}

nlohmann::json run_child(const std::string& self, const std::string& mode, const options& o) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("pipe");
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    close(pipe_fds[0]);
    const std::vector<std::string> args{self,
                                        "--child",
                                        mode,
                                        "--bootstrap-servers",
                                        o.bootstrap,
                                        "--updates",
                                        std::to_string(o.updates),
                                        "--keys",
                                        std::to_string(o.keys),
                                        "--replay-records",
                                        std::to_string(o.replay_records),
                                        "--memory-keys",
                                        std::to_string(o.memory_keys)};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(self.c_str(), argv.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error(mode + " failed: " + out);
  return nlohmann::json::parse(out.substr(out.rfind('{')));
}

options parse(int argc, char** argv, std::string& child_mode) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--child") child_mode = next();
    else if (a == "--bootstrap-servers") o.bootstrap = next();
    else if (a == "--updates") o.updates = std::stoull(next());
    else if (a == "--keys") o.keys = std::stoull(next());
    else if (a == "--replay-records") o.replay_records = std::stoull(next());
    else if (a == "--memory-keys") o.memory_keys = std::stoull(next());
    else if (a == "--json") o.json_path = next();
    else throw std::runtime_error("unknown option " + a + " (see the comment at the top of bench/status_store_bench.cpp)");
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string child_mode;
    options o = parse(argc, argv, child_mode);
    if (!child_mode.empty()) {
      std::cout << child(child_mode, o).dump() << std::endl;
      return 0;
    }
    std::unique_ptr<mock_cluster> mock;
    if (o.bootstrap.empty()) {
      mock = std::make_unique<mock_cluster>(3);
      for (const char* t : {"bench-throughput-raw", "bench-throughput-store", "bench-replay", "bench-memory-raw",
                            "bench-memory-store"})
        mock->create_topic(t, 6, 1);
      o.bootstrap = mock->bootstrap_servers();
    }
    const std::string self = "/proc/self/exe";
    char exe[4096];
    const ssize_t len = readlink(self.c_str(), exe, sizeof exe - 1);
    const std::string binary = len > 0 ? std::string{exe, static_cast<size_t>(len)} : std::string{argv[0]};
    std::cerr << "running on " << (mock ? "an in-process mock cluster" : o.bootstrap) << " ...\n";
    nlohmann::json results;
    for (const char* mode : {"throughput-raw", "throughput-store", "throughput-store-batched", "replay-write", "replay-raw", "replay-store",
                             "memory-raw", "memory-store"}) {
      std::cerr << "  " << mode << "\n";
      results[mode] = run_child(binary, mode, o);
    }
    const double raw_rate = static_cast<double>(o.updates) / results["throughput-raw"]["seconds"].get<double>();
    const double store_rate = static_cast<double>(o.updates) / results["throughput-store"]["seconds"].get<double>();
    const double batched_rate =
        static_cast<double>(o.updates) / results["throughput-store-batched"]["seconds"].get<double>();
    const double raw_replay = results["replay-raw"]["records"].get<double>() / results["replay-raw"]["seconds"].get<double>();
    const double store_replay =
        results["replay-store"]["records"].get<double>() / results["replay-store"]["seconds"].get<double>();
    // The in-process mock keeps every record in both runs; the difference is what the store keeps.
    const double bytes_per_key = (results["memory-store"]["heap_growth_bytes"].get<double>() -
                                  results["memory-raw"]["heap_growth_bytes"].get<double>()) /
                                 static_cast<double>(o.memory_keys);
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    results["parameters"] = {{"updates", o.updates},         {"keys", o.keys},
                             {"replay_records", o.replay_records}, {"memory_keys", o.memory_keys},
                             {"cluster", mock ? "in-process librdkafka mock, 3 brokers" : o.bootstrap},
                             {"cpus", sysconf(_SC_NPROCESSORS_ONLN)}, {"host", host}};
    results["ratios"] = {{"throughput_vs_raw", store_rate / raw_rate},
                         {"batched_throughput_vs_raw", batched_rate / raw_rate},
                         {"replay_vs_raw", store_replay / raw_replay},
                         {"bytes_per_key_beyond_raw", bytes_per_key}};
    std::printf("\n%-44s %14s %14s %8s %s\n", "scenario", "status-store", "raw librdkafka", "ratio", "target");
    std::printf("%-44s %12.0f/s %12.0f/s %8.2f %s\n", "throughput: updates resolved vs records acked", store_rate,
                raw_rate, store_rate / raw_rate, ">= 0.8");
    std::printf("%-44s %12.0f/s %12.0f/s %8.2f %s\n", "throughput, put_all in batches of 1,000", batched_rate,
                raw_rate, batched_rate / raw_rate, ">= 0.8");
    std::printf("%-44s %12.0f/s %12.0f/s %8.2f %s\n", "replay: records per second to the end", store_replay,
                raw_replay, store_replay / raw_replay, ">= 0.7");
    std::printf("%-44s %14.0f %14s %8s %s\n", "memory: bytes per tracked key beyond raw", bytes_per_key, "-", "-",
                "<= 256");
    std::printf("\nstatus-store wrote %llu records for %llu updates (%llu coalesced)\n",
                static_cast<unsigned long long>(results["throughput-store"]["records"].get<uint64_t>()),
                static_cast<unsigned long long>(o.updates),
                static_cast<unsigned long long>(results["throughput-store"]["coalesced"].get<uint64_t>()));
    std::ofstream{o.json_path} << results.dump(2) << "\n";
    std::cout << "raw figures: " << o.json_path << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
