// `status-store demo`: a simulated worker runs connectors and tasks through realistic state changes
// while the brokers go down for a while, then the topic is read back and compared, key by key, with
// the latest status the worker reported. Exit 0 only if every key's latest status is on the topic.
// SIGINT/SIGTERM end the workload early; the demo still drains, checks what was reported and prints
// its summary and verdict (a second signal ends it at once).
#include "actors/kafka/mock_cluster.hpp"
#include "actors/kafka/topic_snapshot.hpp"
#include "app/commands.hpp"
#include "app/connection_config.hpp"
#include "app/stop_signals.hpp"
#include "app/store/metric_names.hpp"
#include "app/store/store.hpp"
#include "config/client_settings.hpp"
#include "config/logging.hpp"
#include "messages/status_record_codec.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <thread>

namespace status_store::cli {

namespace {

using clock_type = std::chrono::steady_clock;
using namespace std::chrono_literals;

/// One simulated Connect worker: it decides what happens next and remembers, per key, the latest
/// value it reported — the ground truth the topic is checked against.
class simulated_worker {
 public:
  simulated_worker(store& s, int connectors, int tasks, uint64_t seed)
      : store_(s), tasks_(tasks), alive_(connectors, false), random_(seed) {}

  void start_all() {
    for (int c = 0; c < static_cast<int>(alive_.size()); ++c) create(c);
  }

  /// One step of the workload: a realistic mix of state changes.
  void step() {
    const int c = pick(static_cast<int>(alive_.size()));
    if (!alive_[c]) {
      create(c);
      return;
    }
    const int roll = pick(100);
    if (roll < 45 && tasks_ > 0) {
      task_status t{name(c), pick(tasks_), value(random_state())};
      if (t.value.state == status_state::failed)
        report_safe(t);  // Connect writes FAILED with putSafe
      else
        report(t);
    } else if (roll < 65) {
      report(connector_status{name(c), value(random_state())});
    } else if (roll < 85) {
      topic_status t{"orders-" + std::to_string(pick(3)), name(c), pick(std::max(tasks_, 1)), now_ms()};
      store_.put(t);
      expect(encode_topic_record(t));
    } else if (roll < 92) {
      const std::string topic = "orders-" + std::to_string(pick(3));
      store_.delete_topic(name(c), topic);
      expect(encode_topic_tombstone(topic, name(c)));
    } else if (roll < 98) {
      rebalance(c);
    } else {
      destroy(c);
    }
  }

  const std::map<std::string, std::optional<std::string>>& expected() const { return expected_; }

 private:
  static std::string name(int c) { return "demo-connector-" + std::to_string(c); }
  int pick(int n) { return std::uniform_int_distribution<int>{0, n - 1}(random_); }
  static int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  status_state random_state() {
    static constexpr status_state states[] = {status_state::running, status_state::running,    status_state::running,
                                              status_state::paused,  status_state::restarting, status_state::failed};
    return states[pick(6)];
  }

  status_value value(status_state state) {
    status_value v{state, std::nullopt, worker_id_, generation_};
    if (state == status_state::failed)
      v.trace = "org.apache.kafka.connect.errors.ConnectException: simulated failure #" + std::to_string(++failures_) +
                "\n\tat demo.Task.poll(Task.java:42)\n\tat \"quoted\" frame\\with backslash";
    return v;
  }

  void expect(status_record r) { expected_[r.key] = std::move(r.value); }
  void report(const connector_status& s) {
    store_.put(s);
    expect(encode_connector_record(s));
  }
  void report(const task_status& s) {
    store_.put(s);
    expect(encode_task_record(s));
  }
  // One simulated worker owns everything, so its own putSafe is never refused (same worker_id).
  void report_safe(const task_status& s) {
    store_.put_safe(s);
    expect(encode_task_record(s));
  }

  void create(int c) {
    alive_[c] = true;
    report(connector_status{name(c), value(status_state::running)});
    for (int t = 0; t < tasks_; ++t) report(task_status{name(c), t, value(status_state::running)});
  }

  /// A rebalance: the tasks go UNASSIGNED (putSafe, as Connect's onShutdown) and come back RUNNING
  /// in the next generation.
  void rebalance(int c) {
    for (int t = 0; t < tasks_; ++t) report_safe(task_status{name(c), t, value(status_state::unassigned)});
    ++generation_;
    for (int t = 0; t < tasks_; ++t) report(task_status{name(c), t, value(status_state::running)});
  }

  /// A deleted connector: a DESTROYED tombstone for each task, then for the connector (as the herder).
  void destroy(int c) {
    alive_[c] = false;
    for (int t = 0; t < tasks_; ++t) report(task_status{name(c), t, value(status_state::destroyed)});
    report(connector_status{name(c), value(status_state::destroyed)});
  }

  store& store_;
  int tasks_;
  std::vector<bool> alive_;
  std::mt19937_64 random_;
  std::string worker_id_ = "demo-worker-1:8083";
  int32_t generation_ = 1;
  uint64_t failures_ = 0;
  std::map<std::string, std::optional<std::string>> expected_;
};

std::string progress_line(const metrics_snapshot& m, double elapsed_s, const char* phase) {
  const auto& c = m.counters;
  char line[256];
  std::snprintf(line, sizeof line,
                "%5.1fs %-9s accepted %7llu (%6.0f/s)  acked %7llu  retries %5llu  waiting %4llu  coalesced %6llu  "
                "failed %llu",
                elapsed_s, phase, static_cast<unsigned long long>(c.accepted),
                elapsed_s > 0 ? static_cast<double>(c.accepted) / elapsed_s : 0.0,
                static_cast<unsigned long long>(c.success), static_cast<unsigned long long>(c.retry),
                static_cast<unsigned long long>(c.waiting_retry), static_cast<unsigned long long>(c.coalesced),
                static_cast<unsigned long long>(c.failure));
  return line;
}

/// Every reason the verdict fails, with its count: "flush timed out; 3 key(s) missing; ...".
std::string failure_reasons(bool flushed, size_t missing, size_t wrong, const metrics_snapshot& m) {
  std::string out;
  auto add = [&](uint64_t count, const std::string& what) {
    if (count == 0) return;
    out += (out.empty() ? "" : "; ") + std::to_string(count) + " " + what;
  };
  if (!flushed) out = "flush timed out (updates still unresolved)";
  add(missing, "key(s) missing");
  add(wrong, "key(s) with a stale value");
  add(m.counters.failure, "update(s) failed (status-update-failure-total)");
  add(m.counters.dropped_stale, "putSafe update(s) refused as stale (status-update-stale-dropped-total)");
  return out;
}

}  // namespace

int demo(const demo_options& options) {
  // Line-buffered even into a pipe or file, so a run that is stopped keeps every line it printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  // Demo defaults: the embedded mock cluster, and attempts short enough (2 s) that the outage below
  // shows real retries; a --config file or --set overrides any of them.
  const properties demo_defaults{
      {"bootstrap.servers", "mock"},
      {"group.id", "demo-cluster"},
      {"status.storage.topic", "connect-status"},
      {"producer.message.timeout.ms", "2000"},
  };
  worker_config config = resolve_connection_config(options.connection, demo_defaults);
  auto log = component_logger("demo");
  stop_signals signals;  // before the store: its threads inherit the blocked signals
  const bool tty = options.progress && isatty(STDERR_FILENO);

  store s{config, store_options{.jitter_seed = options.seed}};
  simulated_worker worker{s, options.connectors, options.tasks_per_connector, options.seed};
  mock_cluster* mock = s.embedded_mock_cluster();
  const bool outage = options.outage_s > 0 && mock != nullptr;
  if (options.outage_s > 0 && !mock)
    log->warn("--outage ignored: the demo can only take down the embedded mock cluster's brokers");
  const double outage_at = options.duration_s / 3;

  std::cout << "status-store demo: " << options.connectors << " connectors x " << options.tasks_per_connector
            << " tasks, " << options.rate << " updates/s for " << options.duration_s << " s, topic '"
            << config.status_topic << "' on " << (mock ? "the embedded mock cluster " : "") << s.bootstrap_servers()
            << (outage ? ", brokers down for " + std::to_string(options.outage_s).substr(0, 4) + " s at " +
                             std::to_string(outage_at).substr(0, 4) + " s"
                       : std::string{})
            << "\n";

  const auto begin = clock_type::now();
  auto elapsed = [&] { return std::chrono::duration<double>(clock_type::now() - begin).count(); };
  auto show = [&](const char* phase, bool force) {
    static auto last = clock_type::time_point{};
    const auto now = clock_type::now();
    if (!force && now - last < (tty ? 250ms : 2s)) return;
    last = now;
    const auto line = progress_line(s.metrics(), elapsed(), phase);
    if (tty)
      std::cerr << "\r" << line << std::flush;
    else
      log->info("{}", line);
  };

  worker.start_all();
  enum class phase { before, down, after } state = phase::before;
  uint64_t steps = 0;
  while (elapsed() < options.duration_s && !signals.received()) {
    const double t = elapsed();
    if (outage && state == phase::before && t >= outage_at) {
      if (tty) std::cerr << "\n";
      log->warn("taking all brokers down for {:.1f} s", options.outage_s);
      mock->set_broker_down(-1);
      state = phase::down;
    } else if (state == phase::down && t >= outage_at + options.outage_s) {
      if (tty) std::cerr << "\n";
      log->info("brokers are back");
      mock->set_broker_up(-1);
      state = phase::after;
    }
    // Pace the workload: catch up to rate x elapsed, then wait a little.
    const auto target = static_cast<uint64_t>(t * options.rate);
    while (steps < target) {
      worker.step();
      ++steps;
    }
    show(state == phase::down ? "OUTAGE" : "running", false);
    std::this_thread::sleep_for(5ms);
  }
  if (state == phase::down) {  // the outage outlasted the run
    log->info("brokers are back (the run ended during the outage)");
    mock->set_broker_up(-1);
  }

  if (tty) std::cerr << "\n";
  const int interrupted = signals.received();
  // Interrupted, the demo honours the drain deadline an operator configured; otherwise it waits
  // for the retries to resolve every update, however long the outage made them.
  const auto flush_timeout =
      interrupted ? config.shutdown_drain_timeout() : std::chrono::milliseconds{std::chrono::minutes{5}};
  if (interrupted)
    log->warn("received {} after {:.1f} s: workload stopped; draining for at most {} ms, then checking the topic",
              signal_name(interrupted), elapsed(), flush_timeout.count());
  else
    log->info("workload done; waiting until every update is acknowledged or has failed");
  const bool flushed = s.flush(flush_timeout);
  show("flushed", true);
  if (tty) std::cerr << "\n";
  const auto metrics = s.metrics();

  kafka_settings reader = consumer_settings(config);
  reader.emplace_back("bootstrap.servers", s.bootstrap_servers());
  const auto topic = read_topic_to_end(reader, config.status_topic, std::chrono::seconds{60});
  size_t missing = 0, wrong = 0;
  std::string example;
  for (const auto& [key, value] : worker.expected()) {
    auto it = topic.latest.find(key);
    if (it == topic.latest.end()) {
      ++missing;
      if (example.empty()) example = key + " (missing)";
    } else if (it->second.value != value) {
      ++wrong;
      if (example.empty()) example = key + " (stale value)";
    }
  }
  s.stop();

  const auto& c = metrics.counters;
  std::cout << "\nsummary\n";
  for (const auto& sample : metric_samples(metrics))
    std::cout << "  " << sample.name << std::string(38 - std::min<size_t>(sample.name.size(), 37), ' ')
              << static_cast<uint64_t>(sample.value) << "\n";
  std::cout << "  records on the topic                  " << topic.records << " for " << topic.latest.size()
            << " keys (" << c.accepted << " updates accepted)\n"
            << "  keys checked                          " << worker.expected().size() << ": " << missing << " missing, "
            << wrong << " stale\n\n";
  const std::string reasons = failure_reasons(flushed, missing, wrong, metrics);
  const std::string early =
      interrupted ? std::string{" (stopped early by "} + signal_name(interrupted) + ")" : std::string{};
  if (reasons.empty()) {
    std::cout << "verdict: every key's latest status is on the topic" << early << "\n";
    return exit_ok;
  }
  std::cout << "verdict: FAILED" << early << " — " << reasons << (example.empty() ? "" : "; e.g. " + example) << "\n";
  return exit_failed;
}

}  // namespace status_store::cli
