// status-store benchmarks, side by side in one run on the same cluster (an in-process librdkafka mock
// cluster by default, a real one with --bootstrap-servers):
//   throughput  U updates over K keys through the facade, as fast as accepted, until all are
//               acknowledged — beside a raw librdkafka producer sending the very same keys and bytes
//               with the same producer settings (the ceiling);
//   replay      a topic of R records (every 97th a tombstone) read to its end by a store's start-up
//               replay — beside a raw consumer reading the same topic (the ceiling);
//   latency     put -> latest durable p50/p99/p99.9/max at steady rates (1,000, 10,000, 100,000/s and
//               50 % and 90 % of status-store's throughput) over K keys with a hotspot, beside a raw
//               producer at the same rates and keys (latency_scenario.cpp, latency_report.cpp);
//               `--only latency` runs it alone, after the throughput pair that sets its maximum;
//   outage      every broker down for T seconds while U updates arrive over K keys: records written
//               after recovery and time until every key's latest value is acknowledged, status-store
//               beside an in-order writer that writes every update as Connect does (outage_scenario.cpp);
//   memory      heap bytes in use per tracked key at steady state: K distinct keys written and read
//               back by a store, minus the same records written by the raw producer (so the mock's
//               own storage of the records cancels out); and under an update storm, many updates to
//               few keys (update_storm_scenario.cpp);
//   REST        GET /connectors?expand=status from `status-store run` for C connectors x T tasks, beside
//               GET /connectors plus one GET /connectors/{name}/status each (rest_expand_scenario.cpp);
//               `--only rest-expand` runs this scenario alone (its figures go to --json, by default
//               bench/results/rest-expand.json);
//   history     H connectors with 16 transitions each replayed with the history on and off: heap per
//               key and replay time (history_scenario.cpp); `--only history` runs it alone.
// Each measurement runs in a child process of its own (same binary, --child MODE), so memory figures
// and allocator state never mix. Prints a table of ratios and writes the raw figures as JSON.
#include "bench_options.hpp"
#include "bench_support.hpp"

#include "actors/kafka/mock_cluster.hpp"
#include "actors/kafka/status_topic_admin.hpp"
#include "actors/kafka/topic_snapshot.hpp"
#include "config/logging.hpp"
#include "messages/status_updates.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

using namespace status_store;
using namespace status_store::bench;

namespace {

// ---- children: one measurement each, printed as a JSON line on stdout ----------------------------------

nlohmann::json child(const std::string& mode, const options& o) {
  set_log_level(spdlog::level::warn);
  if (mode == "throughput-raw") {
    auto config = bench_config(o.bootstrap, "bench-throughput-raw");
    const double s = raw_produce(config, o.bootstrap, o.updates, o.keys);
    return {{"seconds", s}, {"records", o.updates}};
  }
  if (mode == "throughput-store") return store_throughput(o, put_way::single);
  if (mode == "throughput-store-statuses") return store_throughput(o, put_way::all_statuses);
  if (mode == "throughput-store-batched") return store_throughput(o, put_way::all_built);
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
  if (mode == "latency-raw") return latency_raw(o);
  if (mode == "latency-store") return latency_store(o);
  if (mode == "outage-coalescing") return outage(o, true);
  if (mode == "outage-in-order") return outage(o, false);
  if (mode == "update-storm") return update_storm(o);
  if (mode == "rebalance-store") return rebalance_burst_store(o);
  if (mode == "rest-expand") return rest_expand(o);
  if (mode.starts_with("history-")) return history_child(mode, o);
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

void print_rest_rows(const nlohmann::json& r) {
  const auto& e = r["expand"];
  const auto& p = r["per_connector"];
  std::printf("\nREST (status-store run, %llu connectors x %llu tasks, one keep-alive client) %9s %9s %s\n",
              static_cast<unsigned long long>(r["connectors"].get<uint64_t>()),
              static_cast<unsigned long long>(r["tasks_per_connector"].get<uint64_t>()), "p50", "p99",
              "requests, bytes");
  std::printf("%-72s %7.2fms %7.2fms 1, %zu\n", "GET /connectors?expand=status, per request", e["p50_ms"].get<double>(),
              e["p99_ms"].get<double>(), e["bytes"].get<size_t>());
  std::printf("%-72s %7.2fms %7.2fms %llu, %zu\n", "GET /connectors + one GET .../status per connector, per round",
              p["round_p50_ms"].get<double>(), p["round_p99_ms"].get<double>(),
              static_cast<unsigned long long>(p["requests_per_round"].get<uint64_t>()),
              p["bytes_per_round"].get<size_t>());
  std::printf("%-72s %7.3fms %7.3fms\n", "  of which GET /connectors/{name}/status, per request",
              p["request_p50_ms"].get<double>(), p["request_p99_ms"].get<double>());
  std::printf("%-72s %9.0f %9.1f\n", "keep-alive requests/s: GET .../status, GET /connectors?expand=status",
              p["requests_per_s"].get<double>(), e["requests_per_s"].get<double>());
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string child_mode, only;
    options o = parse_options(argc, argv, child_mode, only);
    if (!only.empty() && only != "rest-expand" && only != "history" && only != "latency")
      throw std::runtime_error("--only takes rest-expand, history or latency");
    const bool json_given = std::find(argv, argv + argc, std::string{"--json"}) != argv + argc;
    if (!only.empty() && !json_given) o.json_path = "bench/results/" + only + ".json";
    if (!child_mode.empty()) {
      std::cout << child(child_mode, o).dump() << std::endl;
      return 0;
    }
    std::unique_ptr<mock_cluster> mock;
    if (o.bootstrap.empty()) {
      mock = std::make_unique<mock_cluster>(3);
      for (const char* t :
           {"bench-throughput-raw", "bench-throughput-store", "bench-replay", "bench-memory-raw", "bench-memory-store",
            "bench-storm", "bench-rebalance-store", "bench-rest", "bench-history"})
        mock->create_topic(t, 6, 1);
      for (int point = 0; point < 5; ++point)
        for (const char* side : {"raw", "store"})
          mock->create_topic("bench-latency-" + std::string{side} + "-" + std::to_string(point), 6, 1);
      o.bootstrap = mock->bootstrap_servers();
    } else {
      // A real cluster: the raw sides' topics exist before their producers start, shaped like the
      // store's (6 partitions, compacted), so the ceiling writes to the same kind of topic.
      std::vector<std::string> raw_topics{"bench-throughput-raw", "bench-replay", "bench-memory-raw"};
      for (int point = 0; point < 5; ++point) raw_topics.push_back("bench-latency-raw-" + std::to_string(point));
      for (const auto& t : raw_topics) {
        const auto config = bench_config(o.bootstrap, t);
        kafka_settings admin = admin_settings(config);
        admin.emplace_back("bootstrap.servers", o.bootstrap);
        ensure_status_topic(admin, config, std::chrono::seconds{60});
      }
    }
    const std::string self = "/proc/self/exe";
    char exe[4096];
    const ssize_t len = readlink(self.c_str(), exe, sizeof exe - 1);
    const std::string binary = len > 0 ? std::string{exe, static_cast<size_t>(len)} : std::string{argv[0]};
    std::cerr << "running on " << (mock ? "an in-process mock cluster" : o.bootstrap) << " ...\n";
    nlohmann::json results;
    const auto run = [&](const char* mode) {
      std::cerr << "  " << mode << "\n";
      results[mode] = run_child(binary, mode, o);
    };
    if (only == "history") {
      for (const char* mode : {"history-write", "history-on", "history-off"}) run(mode);
      print_history_rows(results, o);
      results["parameters"] = {{"history_keys", o.history_keys},
                               {"cluster", mock ? "in-process librdkafka mock, 3 brokers" : o.bootstrap}};
      std::ofstream{o.json_path} << results.dump(2) << "\n";
      return 0;
    }
    const auto rate_of = [&](const char* mode) {
      return static_cast<double>(o.updates) / results[mode]["seconds"].get<double>();
    };
    if (only == "latency") {  // the throughput pair (the maximum rates), then the latency points alone
      for (const char* mode : {"throughput-raw", "throughput-store"}) run(mode);
      results["latency"] = run_latency_points(binary, o, rate_of("throughput-store"), rate_of("throughput-raw"));
      std::printf("\nthroughput: status-store %.0f/s, raw librdkafka %.0f/s (%.2f)\n", rate_of("throughput-store"),
                  rate_of("throughput-raw"), rate_of("throughput-store") / rate_of("throughput-raw"));
      report_latency(results, o.json_path);
      results["parameters"] = {{"cluster", mock ? "in-process librdkafka mock, 3 brokers" : o.bootstrap}};
      std::ofstream{o.json_path} << results.dump(2) << "\n";
      return 0;
    }
    if (!only.empty()) {
      run("rest-expand");
      print_rest_rows(results["rest-expand"]);
      results["parameters"] = {{"rest_connectors", o.rest_connectors},
                               {"rest_tasks", o.rest_tasks},
                               {"rest_requests", o.rest_requests},
                               {"rest_rounds", o.rest_rounds},
                               {"cluster", mock ? "in-process librdkafka mock, 3 brokers" : o.bootstrap},
                               {"cpus", sysconf(_SC_NPROCESSORS_ONLN)}};
      std::ofstream{o.json_path} << results.dump(2) << "\n";
      std::cout << "raw figures: " << o.json_path << "\n";
      return 0;
    }
    run("throughput-raw");
    run("throughput-store");
    const double raw_rate = rate_of("throughput-raw"), store_rate = rate_of("throughput-store");
    // The latency points at fixed rates and at 50 % and 90 % of the store's own maximum just measured.
    results["latency"] = run_latency_points(binary, o, store_rate, raw_rate);
    for (const char* mode : {"throughput-store-statuses", "throughput-store-batched", "replay-write", "replay-raw",
                             "replay-store", "memory-raw", "memory-store", "update-storm", "rebalance-store",
                             "rest-expand", "history-write", "history-on", "history-off"})
      run(mode);
    // The outage needs brokers it can stop: each run owns an in-process mock cluster.
    for (const char* mode : {"outage-coalescing", "outage-in-order"}) run(mode);
    // The incumbent on the same broker, keys and sizes (needs a real broker: a JVM cannot join the
    // in-process mock of this process).
    if (!o.java_driver.empty()) {
      if (mock) throw std::runtime_error("--java-driver needs --bootstrap-servers (a real broker)");
      std::cerr << "  incumbent-put (Kafka Connect's KafkaStatusBackingStore)\n";
      results["incumbent-put"] = run_incumbent(o, "bench-put '" + o.bootstrap + "' bench-incumbent-put " +
                                                      std::to_string(o.updates) + " " + std::to_string(o.keys));
      std::cerr << "  incumbent-replay\n";
      results["incumbent-replay"] = run_incumbent(o, "bench-replay '" + o.bootstrap + "' bench-replay");
      std::cerr << "  incumbent-rebalance\n";
      results["incumbent-rebalance"] = run_incumbent(
          o, "bench-rebalance '" + o.bootstrap + "' bench-rebalance-java " + std::to_string(o.rebalance_connectors));
    }
    const double statuses_rate =
        static_cast<double>(o.updates) / results["throughput-store-statuses"]["seconds"].get<double>();
    const double batched_rate =
        static_cast<double>(o.updates) / results["throughput-store-batched"]["seconds"].get<double>();
    const double raw_replay =
        results["replay-raw"]["records"].get<double>() / results["replay-raw"]["seconds"].get<double>();
    const double store_replay =
        results["replay-store"]["records"].get<double>() / results["replay-store"]["seconds"].get<double>();
    // The in-process mock keeps every record in both runs; the difference is what the store keeps.
    const double bytes_per_key = (results["memory-store"]["heap_growth_bytes"].get<double>() -
                                  results["memory-raw"]["heap_growth_bytes"].get<double>()) /
                                 static_cast<double>(o.memory_keys);
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    results["parameters"] = {{"updates", o.updates},
                             {"keys", o.keys},
                             {"replay_records", o.replay_records},
                             {"memory_keys", o.memory_keys},
                             {"outage_seconds", o.outage_seconds},
                             {"outage_updates", o.outage_updates},
                             {"outage_keys", o.outage_keys},
                             {"storm_updates", o.storm_updates},
                             {"storm_keys", o.storm_keys},
                             {"cluster", mock ? "in-process librdkafka mock, 3 brokers" : o.bootstrap},
                             {"cpus", sysconf(_SC_NPROCESSORS_ONLN)},
                             {"host", host}};
    const auto& out_c = results["outage-coalescing"];
    const auto& out_o = results["outage-in-order"];
    const auto& storm = results["update-storm"];
    results["ratios"] = {{"throughput_vs_raw", store_rate / raw_rate},
                         {"put_all_statuses_throughput_vs_raw", statuses_rate / raw_rate},
                         {"batched_throughput_vs_raw", batched_rate / raw_rate},
                         {"replay_vs_raw", store_replay / raw_replay},
                         {"bytes_per_key_beyond_raw", bytes_per_key},
                         {"outage_records_after_recovery_per_key",
                          out_c["records_after_recovery"].get<double>() / static_cast<double>(o.outage_keys)}};
    std::printf("\n%-44s %14s %14s %8s %s\n", "scenario", "status-store", "raw librdkafka", "ratio", "target");
    std::printf("%-44s %12.0f/s %12.0f/s %8.2f %s\n", "throughput: updates resolved vs records acked", store_rate,
                raw_rate, store_rate / raw_rate, ">= 0.8");
    std::printf("%-44s %12.0f/s %12.0f/s %8.2f %s\n", "throughput, put_all of 1,000 statuses", statuses_rate, raw_rate,
                statuses_rate / raw_rate, ">= 0.8");
    std::printf("%-44s %12.0f/s %12.0f/s %8.2f %s\n", "throughput, put_all of 1,000 built updates", batched_rate,
                raw_rate, batched_rate / raw_rate, ">= 0.8");
    std::printf("%-44s %12.0f/s %12.0f/s %8.2f %s\n", "replay: records per second to the end", store_replay, raw_replay,
                store_replay / raw_replay, ">= 0.7");
    std::printf("%-44s %14.0f %14s %8s %s\n", "memory: bytes per tracked key beyond raw", bytes_per_key, "-", "-",
                "<= 256");
    if (results.contains("incumbent-put")) {
      const double java_put = results["incumbent-put"]["per_second"].get<double>();
      const double java_replay = results["incumbent-replay"]["per_second"].get<double>();
      results["ratios"]["throughput_vs_connect_java"] = store_rate / java_put;
      results["ratios"]["replay_vs_connect_java"] = store_replay / java_replay;
      std::printf("\n%-44s %14s %14s %8s %s\n", "the incumbent, same broker", "status-store", "Connect (Java)", "ratio",
                  "target");
      std::printf("%-44s %12.0f/s %12.0f/s %8.2f %s\n", "throughput: one put per update", store_rate, java_put,
                  store_rate / java_put, ">= 2");
      std::printf("%-44s %12.0f/s %12.0f/s %8.2f %s\n", "replay: records per second to the end", store_replay,
                  java_replay, store_replay / java_replay, "-");
    }
    {
      const auto& rs = results["rebalance-store"];
      const bool java = results.contains("incumbent-rebalance");
      const auto& rj = java ? results["incumbent-rebalance"] : rs;
      std::printf("\n%-44s %14s %14s %8s\n",
                  ("rebalance burst: " + std::to_string(o.rebalance_connectors) + " connectors x 8 tasks").c_str(),
                  "status-store", "Connect (Java)", "ratio");
      if (java) {
        results["ratios"]["rebalance_seconds_vs_connect_java"] =
            rs["seconds"].get<double>() / rj["seconds"].get<double>();
        std::printf("%-44s %13.2fs %13.2fs %8.2f\n", "until every latest status is acknowledged",
                    rs["seconds"].get<double>(), rj["seconds"].get<double>(),
                    rs["seconds"].get<double>() / rj["seconds"].get<double>());
        std::printf("%-44s %14llu %14llu %8.2f\n", "records written",
                    static_cast<unsigned long long>(rs["records"].get<uint64_t>()),
                    static_cast<unsigned long long>(rj["records"].get<uint64_t>()),
                    rs["records"].get<double>() / std::max(1.0, rj["records"].get<double>()));
      } else {
        std::printf("%-44s %13.2fs %14s %8s\n", "until every latest status is acknowledged",
                    rs["seconds"].get<double>(), "-", "-");
        std::printf("%-44s %14llu %14s %8s\n", "records written",
                    static_cast<unsigned long long>(rs["records"].get<uint64_t>()), "-", "-");
      }
    }
    std::printf("\n%-44s %14s %14s %s\n", "outage (mock cluster)", "status-store", "in order", "target");
    std::printf("%-44s %14llu %14llu %s\n", "records written after recovery",
                static_cast<unsigned long long>(out_c["records_after_recovery"].get<uint64_t>()),
                static_cast<unsigned long long>(out_o["records_after_recovery"].get<uint64_t>()),
                ("<= keys (" + std::to_string(o.outage_keys) + ")").c_str());
    std::printf("%-44s %13.2fs %13.2fs\n", "recovery until every latest value is acked",
                out_c["seconds_to_latest"].get<double>(), out_o["seconds_to_latest"].get<double>());
    std::printf("%-44s %14llu %14llu\n", "failures", static_cast<unsigned long long>(out_c["failures"].get<uint64_t>()),
                static_cast<unsigned long long>(out_o["failures"].get<uint64_t>()));
    std::printf("\nupdate storm: %llu updates over %llu keys; heap after a flush at each quarter:",
                static_cast<unsigned long long>(o.storm_updates), static_cast<unsigned long long>(o.storm_keys));
    for (const auto& q : storm["settled"]) std::printf(" %ld", q["heap_bytes"].get<long>());
    std::printf(" bytes (first to last quarter: %+ld); peak between flushes %ld bytes\n",
                storm["growth_first_to_last_quarter_bytes"].get<long>(),
                storm["peak_unsettled_heap_bytes"].get<long>());
    report_latency(results, o.json_path);
    print_rest_rows(results["rest-expand"]);
    print_history_rows(results, o);
    std::printf("\nstatus-store wrote %llu records for %llu updates (%llu coalesced)\n",
                static_cast<unsigned long long>(results["throughput-store"]["records"].get<uint64_t>()),
                static_cast<unsigned long long>(o.updates),
                static_cast<unsigned long long>(results["throughput-store"]["coalesced"].get<uint64_t>()));
    std::ofstream{o.json_path} << results.dump(2) << "\n";
    // The chart's data (scripts/bench.sh draws it with bench/ratios.gnuplot): one row per ratio,
    // "higher is better" rows as they are, "lower is better" rows as target / value, so every bar
    // reaching 1 meets its target.
    {
      std::string tsv_path = o.json_path;
      if (tsv_path.size() > 5 && tsv_path.ends_with(".json"))
        tsv_path.replace(tsv_path.size() - 5, 5, ".tsv");
      else
        tsv_path += ".tsv";
      std::ofstream tsv{tsv_path};
      tsv << "scenario\tscore\n";
      tsv << "\"throughput, put\"\t" << (store_rate / raw_rate) / 0.8 << "\n";
      tsv << "\"throughput, put_all of statuses\"\t" << (statuses_rate / raw_rate) / 0.8 << "\n";
      tsv << "\"throughput, put_all of built updates\"\t" << (batched_rate / raw_rate) / 0.8 << "\n";
      tsv << "\"p99 at half max\"\t" << 2.0 / std::max(results["ratios"]["p99_vs_raw_at_half_max"].get<double>(), 1e-9)
          << "\n";
      tsv << "\"replay\"\t" << (store_replay / raw_replay) / 0.7 << "\n";
      tsv << "\"bytes per key\"\t" << 256.0 / std::max(bytes_per_key, 1.0) << "\n";
      tsv << "\"outage records\"\t"
          << static_cast<double>(o.outage_keys) / std::max(1.0, out_c["records_after_recovery"].get<double>()) << "\n";
    }
    std::cout << "raw figures: " << o.json_path << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
