// Put -> latest durable at a steady rate: one point of the latency scenario, one side per child.
// Puts are paced by the clock (open loop: never by acknowledgements) at `latency_rate` for a warm-up,
// then for `latency_seconds` measured, over `keys` keys with an 80/20 hotspot (YCSB's: 80 % of the
// puts go to 20 % of the keys, uniformly within each set; the same seeded sequence on both sides).
// For every put, the time until a record of its value or a newer value of its key is acknowledged:
// the status-store side hears every acknowledged record (store_options::on_acknowledged, the
// generation it carried and when librdkafka reported it); the raw side hears its own delivery
// reports on a poll thread, as the store's producer does (for raw every record is its own put).
// A put's time is when it was due or when it was made, whichever is earlier, so a generator that
// falls behind its schedule counts the lag (no coordinated omission). docs/benchmarks.md#latency.
#include "bench_support.hpp"

#include "messages/codec/status_key_format.hpp"
#include "messages/codec/status_value_codec.hpp"

#include <sys/resource.h>

#include <atomic>
#include <limits>
#include <random>
#include <thread>
#include <vector>

namespace status_store::bench {
namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(clock_type::now().time_since_epoch()).count();
}

/// CPU seconds this process has used (every thread: the store's actors, librdkafka's threads).
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// One acknowledgement as either side hears it: the generation the record carried, and when.
struct ack_event {
  int32_t generation;
  int64_t at_ns;
};

/// The puts of one point: which key each goes to, its generation (key + keys x the key's count, so
/// an acknowledgement names its key and how many of the key's puts it covers), and when it was made.
class put_plan {
 public:
  explicit put_plan(const options& o)
      : keys_(o.keys),
        rate_(o.latency_rate),
        warm_(static_cast<uint64_t>(o.latency_rate * o.latency_warmup_seconds)),
        total_(warm_ + static_cast<uint64_t>(o.latency_rate * o.latency_seconds)),
        times_(o.keys),
        hot_keys_(std::max<uint64_t>(1, o.keys / 5)) {
    if (rate_ <= 0 || keys_ == 0) throw std::runtime_error("latency: needs a rate and keys");
  }

  uint64_t total() const { return total_; }
  uint64_t keys() const { return keys_; }

  /// Waits until put i is due (or about to be: within 100 µs, sleeping is coarser than that), picks
  /// its key and returns its generation; `made` then stamps it.
  std::pair<uint64_t, int32_t> next(uint64_t i) {
    const auto due = start_ + std::chrono::duration_cast<clock_type::duration>(
                                  std::chrono::duration<double>(static_cast<double>(i) / rate_));
    if (due - clock_type::now() > std::chrono::microseconds{100}) std::this_thread::sleep_until(due);
    due_ns_ = std::chrono::duration_cast<std::chrono::nanoseconds>(due.time_since_epoch()).count();
    const bool hot = random_() % 10 < 8 || hot_keys_ == keys_;
    const uint64_t key = hot ? random_() % hot_keys_ : hot_keys_ + random_() % (keys_ - hot_keys_);
    const uint64_t count = times_[key].size();
    if (count >= (std::numeric_limits<int32_t>::max() - key) / keys_)
      throw std::runtime_error("latency: too many puts per key for the generation");
    return {key, static_cast<int32_t>(key + keys_ * count)};
  }
  void made(uint64_t key, uint64_t i) {
    const int64_t now = now_ns();
    max_lag_ns_ = std::max(max_lag_ns_, now - due_ns_);
    times_[key].push_back(std::min(now, due_ns_));
    if (i == warm_) measured_from_ns_ = std::min(now, due_ns_);
  }
  void start() { start_ = clock_type::now(); }

  /// The durability figures of the measured puts, from the acknowledgements heard (in the order heard).
  nlohmann::json durability(const std::vector<ack_event>& acks, double put_seconds) const;

 private:
  uint64_t keys_;
  double rate_;
  uint64_t warm_, total_;
  std::vector<std::vector<int64_t>> times_;  // per key, its puts' times in order
  uint64_t hot_keys_;
  std::mt19937_64 random_{20261225};
  clock_type::time_point start_;
  int64_t due_ns_ = 0, max_lag_ns_ = 0, measured_from_ns_ = std::numeric_limits<int64_t>::max();
};

nlohmann::json put_plan::durability(const std::vector<ack_event>& acks, double put_seconds) const {
  std::vector<uint64_t> durable(keys_, 0);  // per key: how many of its puts are durable
  latency_histogram latency;
  for (const auto& a : acks) {
    const auto key = static_cast<uint64_t>(a.generation) % keys_;
    const auto covers = static_cast<uint64_t>(a.generation) / keys_ + 1;
    for (; durable[key] < std::min<uint64_t>(covers, times_[key].size()); ++durable[key]) {
      const int64_t put = times_[key][durable[key]];
      if (put >= measured_from_ns_) latency.record(static_cast<uint64_t>(std::max<int64_t>(0, a.at_ns - put)) / 1000);
    }
  }
  uint64_t never = 0;
  for (uint64_t k = 0; k < keys_; ++k) never += times_[k].size() - durable[k];
  return {{"rate", rate_},
          {"puts", total_},
          {"measured_puts", latency.count()},
          {"put_seconds", put_seconds},
          {"achieved_rate", static_cast<double>(total_) / put_seconds},
          {"max_lag_ms", static_cast<double>(max_lag_ns_) / 1e6},
          {"never_durable", never},
          {"acknowledgements", acks.size()},
          {"p50_us", latency.quantile(0.5)},
          {"p99_us", latency.quantile(0.99)},
          {"p999_us", latency.quantile(0.999)},
          {"max_us", latency.max()}};
}

nlohmann::json hop_figures(const latency_distribution& d) {
  return {{"p50_us", d.p50_us}, {"p99_us", d.p99_us}, {"max_us", d.max_us}, {"count", d.count}};
}

std::string topic_of(const options& o, const char* side) {
  return std::string{"bench-latency-"} + side + "-" + std::to_string(o.latency_point);
}

}  // namespace

nlohmann::json latency_raw(const options& o) {
  put_plan plan{o};
  std::vector<ack_event> acks;
  acks.reserve(plan.total());
  std::atomic<uint64_t> reported{0};
  raw_producer producer{bench_config(o.bootstrap, topic_of(o, "raw")), o.bootstrap};
  producer.observe_reports([&](uint64_t tag, bool acknowledged) {
    if (acknowledged) acks.push_back({static_cast<int32_t>(tag), now_ns()});
    reported.fetch_add(1, std::memory_order_release);
  });
  // Reports are served by a thread of their own blocking in poll, as the store's producer serves them.
  std::atomic<bool> polling{true};
  std::thread poller{[&] {
    while (polling.load(std::memory_order_relaxed)) producer.poll(100);
  }};
  std::vector<std::string> keys(o.keys);
  for (uint64_t k = 0; k < o.keys; ++k) connector_key_into("bench-connector-" + std::to_string(k), keys[k]);
  status_value value{status_state::running, std::nullopt, "bench-worker-1:8083", 0};
  std::string bytes;
  plan.start();
  const auto start = clock_type::now();
  const double cpu_at_start = cpu_seconds();
  for (uint64_t i = 0; i < plan.total(); ++i) {
    const auto [key, generation] = plan.next(i);
    value.generation = generation;
    value.state = i % 5 ? status_state::running : status_state::paused;
    encode_status_value_into(value, bytes);  // the store encodes each put too
    plan.made(key, i);
    producer.send_tagged(keys[key], bytes, static_cast<uint64_t>(generation));
  }
  const double put_seconds = seconds_since(start);
  const auto give_up = clock_type::now() + std::chrono::minutes{10};
  while (reported.load(std::memory_order_acquire) < plan.total() && clock_type::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds{1});
  const double cpu = cpu_seconds() - cpu_at_start;
  polling = false;
  poller.join();
  auto out = plan.durability(acks, put_seconds);
  out["cpu_seconds"] = cpu;
  return out;
}

nlohmann::json latency_store(const options& o) {
  put_plan plan{o};
  std::vector<ack_event> acks;
  acks.reserve(plan.total());  // never reallocated on the coalescer's thread
  store_options hooks;
  hooks.on_acknowledged = [&acks](std::string_view, int32_t generation, int64_t at_ns) {
    acks.push_back({generation, at_ns});
  };
  store s{bench_config(o.bootstrap, topic_of(o, "store")), hooks};
  std::vector<connector_status> statuses;
  statuses.reserve(o.keys);
  for (uint64_t k = 0; k < o.keys; ++k)
    statuses.push_back(connector_status{"bench-connector-" + std::to_string(k),
                                        status_value{status_state::running, std::nullopt, "bench-worker-1:8083", 0}});
  plan.start();
  const auto start = clock_type::now();
  const double cpu_at_start = cpu_seconds();
  for (uint64_t i = 0; i < plan.total(); ++i) {
    const auto [key, generation] = plan.next(i);
    auto& status = statuses[key];
    status.value.generation = generation;
    status.value.state = i % 5 ? status_state::running : status_state::paused;
    plan.made(key, i);
    s.put(status);
  }
  const double put_seconds = seconds_since(start);
  if (!s.flush(std::chrono::minutes{10})) throw std::runtime_error("flush timed out");
  const double cpu = cpu_seconds() - cpu_at_start;
  const auto m = s.metrics();
  s.stop();  // the coalescer is gone: `acks` is this thread's alone now
  auto out = plan.durability(acks, put_seconds);
  out["cpu_seconds"] = cpu;
  out["records"] = m.counters.success;
  out["coalesced"] = m.counters.coalesced;
  out["failures"] = m.counters.failure;
  out["ack_latency"] = {{"p50_us", m.counters.ack_latency_p50_us},
                        {"p99_us", m.counters.ack_latency_p99_us},
                        {"max_us", m.counters.ack_latency_max_us}};
  out["hops"] = {{"ingest_wait", hop_figures(m.hops.ingest_wait)},
                 {"key_wait", hop_figures(m.hops.key_wait)},
                 {"to_producer", hop_figures(m.hops.to_producer)},
                 {"producer_queue", hop_figures(m.hops.producer_queue)},
                 {"report_to_coalescer", hop_figures(m.hops.report_to_coalescer)}};
  return out;
}

}  // namespace status_store::bench
