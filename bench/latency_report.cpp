// The latency scenario's points, run side by side in child processes (latency_scenario.cpp), and
// their rows: put -> latest durable per rate for status-store and raw librdkafka, the ratios and
// targets, and status-store's write path hops at each rate (docs/metrics.md#write-path-hops).
#include "bench_options.hpp"
#include "bench_support.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>

namespace status_store::bench {
namespace {

double ms(const nlohmann::json& figures, const char* field) { return figures[field].get<double>() / 1000.0; }

/// The target of a point: at the fixed rates p99 within raw's + 2 ms; at half the store's maximum
/// p99 at most twice raw's; at 90 % only reported.
std::string target_of(const nlohmann::json& p) {
  const std::string kind = p["kind"];
  if (kind == "fixed") return "<= raw + 2ms";
  if (kind == "half") return "<= 2 x raw";
  return "reported";
}

bool met(const nlohmann::json& p) {
  const std::string kind = p["kind"];
  const double store = ms(p["store"], "p99_us"), raw = ms(p["raw"], "p99_us");
  const bool durable = p["store"]["never_durable"].get<uint64_t>() == 0;
  if (kind == "fixed") return durable && store <= raw + 2.0;
  if (kind == "half") return durable && store <= 2.0 * raw;
  return durable;
}

void print_side(const char* name, const char* side, const nlohmann::json& f) {
  std::printf("%-14s %-13s %8.2fms %8.2fms %8.2fms %8.2fms %7llu %9.0f/s %8.1fms %7.2fus", name, side, ms(f, "p50_us"),
              ms(f, "p99_us"), ms(f, "p999_us"), ms(f, "max_us"),
              static_cast<unsigned long long>(f["never_durable"].get<uint64_t>()), f["achieved_rate"].get<double>(),
              f["max_lag_ms"].get<double>(), f["cpu_seconds"].get<double>() * 1e6 / f["puts"].get<double>());
}

}  // namespace

nlohmann::json run_latency_points(const std::string& binary, const options& o, double store_max_rate,
                                  double raw_max_rate) {
  struct point {
    const char* name;
    const char* kind;
    double rate;
  };
  const point points[] = {{"1,000/s", "fixed", 1000},
                          {"10,000/s", "fixed", 10000},
                          {"100,000/s", "fixed", 100000},
                          {"50 % of max", "half", store_max_rate / 2},
                          {"90 % of max", "ninety", store_max_rate * 0.9}};
  nlohmann::json out{{"keys", o.keys},
                     {"skew", "80/20 hotspot: 80 % of the puts to 20 % of the keys"},
                     {"warmup_seconds", o.latency_warmup_seconds},
                     {"measured_seconds", o.latency_seconds},
                     {"store_max_rate", store_max_rate},
                     {"raw_max_rate", raw_max_rate},
                     {"points", nlohmann::json::array()}};
  uint64_t index = 0;
  for (const auto& p : points) {
    options at = o;
    at.latency_rate = p.rate;
    at.latency_point = index++;
    std::cerr << "  latency-raw, latency-store at " << p.name << " (" << static_cast<uint64_t>(p.rate) << "/s)\n";
    nlohmann::json row{{"name", p.name}, {"kind", p.kind}, {"rate", p.rate}};
    row["raw"] = run_child(binary, "latency-raw", at);
    row["store"] = run_child(binary, "latency-store", at);
    const double store = ms(row["store"], "p99_us"), raw = ms(row["raw"], "p99_us");
    row["p99_vs_raw"] = store / std::max(raw, 0.001);
    row["p99_minus_raw_ms"] = store - raw;
    row["target"] = target_of(row);
    row["met"] = met(row);
    out["points"].push_back(row);
  }
  return out;
}

void report_latency(nlohmann::json& results, const std::string& json_path) {
  const auto& l = results["latency"];
  std::printf("\nlatency: put -> latest durable, %llu keys (%s), paced by the clock, %g s after %g s warm-up\n",
              static_cast<unsigned long long>(l["keys"].get<uint64_t>()), l["skew"].get<std::string>().c_str(),
              l["measured_seconds"].get<double>(), l["warmup_seconds"].get<double>());
  std::printf("%-14s %-13s %10s %10s %10s %10s %7s %11s %10s %9s\n", "rate", "side", "p50", "p99", "p99.9", "max",
              "never", "put rate", "max lag", "CPU/put");
  for (const auto& p : l["points"]) {
    print_side(p["name"].get<std::string>().c_str(), "status-store", p["store"]);
    const char* verdict = p["kind"] == "ninety" ? (p["met"].get<bool>() ? "" : "(puts never durable!)")
                                                : (p["met"].get<bool>() ? "met" : "NOT met");
    std::printf("  p99 %+.2fms, %.2f x raw: %s %s\n", p["p99_minus_raw_ms"].get<double>(),
                p["p99_vs_raw"].get<double>(), p["target"].get<std::string>().c_str(), verdict);
    print_side(("  " + std::to_string(static_cast<uint64_t>(p["rate"].get<double>())) + "/s").c_str(), "raw", p["raw"]);
    std::printf("\n");
  }
  std::printf(
      "\nstatus-store's hops at each rate, p50 / p99 / max (ms)    ingest wait | key wait | to producer | "
      "producer queue | report to coalescer\n");
  for (const auto& p : l["points"]) {
    std::printf("%-14s", p["name"].get<std::string>().c_str());
    for (const char* hop : {"ingest_wait", "key_wait", "to_producer", "producer_queue", "report_to_coalescer"}) {
      const auto& h = p["store"]["hops"][hop];
      std::printf(" | %.2f / %.2f / %.2f", ms(h, "p50_us"), ms(h, "p99_us"), ms(h, "max_us"));
    }
    std::printf("\n");
  }
  for (const auto& p : l["points"]) {
    const std::string rate = std::to_string(static_cast<uint64_t>(p["rate"].get<double>()));
    if (p["kind"] == "fixed") results["ratios"]["p99_minus_raw_ms_at_" + rate] = p["p99_minus_raw_ms"];
    if (p["kind"] == "half") results["ratios"]["p99_vs_raw_at_half_max"] = p["p99_vs_raw"];
    if (p["kind"] == "ninety") results["ratios"]["p99_vs_raw_at_90_percent_of_max"] = p["p99_vs_raw"];
  }
  // The plot's data (scripts/bench.sh draws p99 against rate with bench/latency.gnuplot).
  std::string tsv_path = json_path;
  if (tsv_path.size() > 5 && tsv_path.ends_with(".json")) tsv_path.resize(tsv_path.size() - 5);
  std::ofstream tsv{tsv_path + "-latency.tsv"};
  tsv << "rate\tstatus-store p99 ms\traw p99 ms\n";
  for (const auto& p : l["points"])
    tsv << p["rate"].get<double>() << "\t" << ms(p["store"], "p99_us") << "\t" << ms(p["raw"], "p99_us") << "\n";
}

}  // namespace status_store::bench
