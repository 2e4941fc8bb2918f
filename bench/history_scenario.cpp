// History: what the status view's transition history costs. A topic of history_keys connectors with
// 16 transitions each (generation 0..15, so every record is a transition) is replayed by a store
// with the history on (16 per key, a total cap well above them all) and by one with it off
// (status.history.max.transitions=0). The heap difference per key is the history's memory; the
// replay times compare the view's work per record with and without it (docs/benchmarks.md).
#include "bench_support.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace status_store::bench {

namespace {

constexpr uint64_t transitions_per_key = 16;

worker_config history_config(const options& o, bool history_on) {
  // Twice what the topic holds: the cap evicts a tenth of itself at a time once reached (status_history.hpp).
  const uint64_t total = 2 * o.history_keys * transitions_per_key;
  return parse_worker_config({{"bootstrap.servers", o.bootstrap},
                              {"group.id", "bench"},
                              {"status.storage.topic", "bench-history"},
                              {"status.storage.partitions", "6"},
                              {"status.storage.replication.factor", "1"},
                              {"status.history.max.transitions", history_on ? "16" : "0"},
                              {"status.history.max.total", std::to_string(total)}});
}

}  // namespace

nlohmann::json history_child(const std::string& mode, const options& o) {
  if (mode == "history-write") {
    const double s =
        raw_produce(history_config(o, true), o.bootstrap, o.history_keys * transitions_per_key, o.history_keys);
    return {{"seconds", s}};
  }
  const bool on = mode == "history-on";
  const long before = heap_in_use();
  store s{history_config(o, on)};  // returns once the replay has reached the end of the topic
  const long grown = heap_in_use() - before;
  const auto v = s.metrics().view;
  const auto kept = s.history("bench-connector-0").transitions.size();
  s.stop();
  // librdkafka's mock cluster drops a partition's oldest records beyond its own bound (about 200,000 of
  // 320,000 here): a figure per key needs every transition replayed.
  if (v.replay_records != o.history_keys * transitions_per_key)
    throw std::runtime_error("history: replayed " + std::to_string(v.replay_records) + " of " +
                             std::to_string(o.history_keys * transitions_per_key) +
                             " records; use fewer --history-keys");
  return {{"heap_growth_bytes", grown},
          {"replay_seconds", static_cast<double>(v.replay_ms) / 1000.0},
          {"records", v.replay_records},
          {"transitions_of_first_key", kept}};
}

void print_history_rows(nlohmann::json& results, const options& o) {
  const auto& on = results["history-on"];
  const auto& off = results["history-off"];
  const double keys = static_cast<double>(o.history_keys);
  const double bytes_per_key = (on["heap_growth_bytes"].get<double>() - off["heap_growth_bytes"].get<double>()) / keys;
  const double replay_ratio = on["replay_seconds"].get<double>() / std::max(1e-9, off["replay_seconds"].get<double>());
  results["ratios"]["history_bytes_per_key_16_transitions"] = bytes_per_key;
  results["ratios"]["replay_seconds_history_on_vs_off"] = replay_ratio;
  std::printf("\n%-44s %14s %14s %8s\n",
              ("history: " + std::to_string(o.history_keys) + " keys x 16 transitions").c_str(), "history on",
              "history off", "ratio");
  std::printf("%-44s %13.2fs %13.2fs %8.2f\n", "replay to the end", on["replay_seconds"].get<double>(),
              off["replay_seconds"].get<double>(), replay_ratio);
  std::printf("%-44s %14.0f %14s %8s\n", "heap per key for its 16 transitions (B)", bytes_per_key, "-", "-");
  std::printf("%-44s %14llu %14llu\n", "transitions kept of bench-connector-0",
              static_cast<unsigned long long>(on["transitions_of_first_key"].get<uint64_t>()),
              static_cast<unsigned long long>(off["transitions_of_first_key"].get<uint64_t>()));
}

}  // namespace status_store::bench
