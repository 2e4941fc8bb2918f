#include "app/store/store.hpp"

#include "actors/coalescer_actor.hpp"
#include "actors/ingest/ingest_table.hpp"
#include "actors/kafka/kafka_producer_client.hpp"
#include "actors/kafka/mock_cluster.hpp"
#include "actors/kafka/status_topic_admin.hpp"
#include "actors/kafka/status_topic_follower.hpp"
#include "actors/kafka/topic_consumer.hpp"
#include "actors/metrics_actor.hpp"
#include "actors/producer_actor.hpp"
#include "actors/retry_scheduler_actor.hpp"
#include "actors/status_view_actor.hpp"
#include "app/store/unanswered_drain.hpp"
#include "config/client_settings.hpp"
#include "config/logging.hpp"
#include "messages/record_writer_header.hpp"
#include "messages/status_updates.hpp"

#include "caf/atom.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <thread>

namespace status_store {

namespace {
/// The view's history caps and flap rule, from status.history.* and status.flap.*.
view_history_settings view_history_of(const worker_config& c) {
  return {{static_cast<uint32_t>(std::max(c.history_max_transitions, 0)),
           static_cast<std::size_t>(std::max<int64_t>(c.history_max_total, 0))},
          {static_cast<uint32_t>(std::max(c.flap_threshold, 1)), c.flap_window_ms},
          std::nullopt};
}
}  // namespace

store::store(const worker_config& config, store_options options) : config_(config) {
  owned_config_ = std::make_unique<caf::actor_system_config>();
  // Work sharing: idle workers wait on one condition variable instead of polling, sleeping and stealing,
  // which leaves the cores to the callers and librdkafka (docs/benchmarks.md, "Scheduler policy").
  owned_config_->set("scheduler.policy", caf::atom("sharing"));
  if (options.scheduler_threads > 0) owned_config_->set("scheduler.max-threads", options.scheduler_threads);
  owned_system_ = std::make_unique<caf::actor_system>(*owned_config_);
  system_ = owned_system_.get();
  start(options);
}

store::store(caf::actor_system& system, const worker_config& config, store_options options)
    : config_(config), system_(&system) {
  start(options);
}

void store::start(store_options options) {
  auto log = component_logger("store");
  const auto started = std::chrono::steady_clock::now();
  const auto startup_timeout = std::chrono::milliseconds{config_.startup_timeout_ms};
  auto remaining = [&] {
    auto left = startup_timeout -
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    return std::max(left, std::chrono::milliseconds{1});
  };
  if (config_.uses_mock_cluster()) {
    // The mock has no CreateTopics: create the topic through its own API.
    mock_ = std::make_unique<mock_cluster>(3);
    mock_->create_topic(config_.status_topic, config_.partitions > 0 ? config_.partitions : defaults::partitions,
                        config_.replication_factor);
    bootstrap_servers_ = mock_->bootstrap_servers();
  } else {
    bootstrap_servers_ = config_.bootstrap_servers;
    kafka_settings admin = admin_settings(config_);
    admin.emplace_back("bootstrap.servers", bootstrap_servers_);
    ensure_status_topic(admin, config_, remaining());
  }
  kafka_settings settings = producer_settings(config_);
  kafka_settings reader_settings = consumer_settings(config_);
  if (mock_) {
    settings.emplace_back("bootstrap.servers", bootstrap_servers_);
    reader_settings.emplace_back("bootstrap.servers", bootstrap_servers_);
  }
  writer_id_ = new_writer_id();
  auto client = std::make_shared<kafka_producer_client>(settings, config_.status_topic, writer_id_);
  link_ = client;
  kafka_cluster_id_ = client->cluster_id(std::min(remaining(), std::chrono::milliseconds{5000}));
  // A topic created a moment ago may have no partition leaders yet; ListOffsets then answers
  // NOT_LEADER_FOR_PARTITION. Like Connect's KafkaBasedLog, try again until the start-up deadline.
  std::shared_ptr<status_topic_follower> reader;
  for (auto backoff = std::chrono::milliseconds{100};;
       backoff = std::min(backoff * 2, std::chrono::milliseconds{1000})) {
    try {
      reader = std::make_shared<status_topic_follower>(reader_settings, config_.status_topic, remaining(), writer_id_);
      break;
    } catch (const transient_kafka_error& e) {
      if (remaining() <= backoff)
        throw std::runtime_error(std::string{e.what()} +
                                 " (still failing when status.storage.startup.timeout.ms ran out)");
      log->info("{}; retrying in {} ms", e.what(), backoff.count());
      std::this_thread::sleep_for(backoff);  // start-up, on the caller's thread: no actor exists yet
    }
  }
  log->info("replaying status topic '{}' ({} record(s) at start); this store writes as '{}' ({} header)",
            config_.status_topic, reader->records_at_start(), writer_id_, writer_header_name);

  const auto& r = config_.retry;
  retry_scheduler_config scheduler_config{r, options.jitter_seed ? *options.jitter_seed : std::random_device{}()};
  metrics_ = spawn_metrics(*system_);
  scheduler_ = spawn_retry_scheduler(*system_, scheduler_config);
  producer_ = spawn_producer(*system_, std::move(client));
  ingest_ = std::make_shared<ingest_table>();
  coalescer_ = spawn_coalescer(*system_, coalescer_config{r, config_.message_timeout_ms}, producer_, scheduler_,
                               metrics_, ingest_);
  wake_target_ = caf::actor_cast<caf::actor>(coalescer_);  // kept until destruction: puts racing stop() are safe
  view_ = spawn_status_view(*system_, coalescer_, metrics_, std::move(reader), view_history_of(config_));

  // Like Connect's start(): return only once the view holds everything the topic held at start.
  std::string failure;
  {
    caf::scoped_actor self{*system_};
    self->request(view_, caf::timespan{remaining()}, await_atom::value)
        .receive([](ok_atom) {}, [&](caf::error& err) { failure = system_->render(err); });
  }
  if (!failure.empty()) {
    stop_actors();
    mock_.reset();
    stopped_ = drain_report{};
    throw std::runtime_error("replaying status topic '" + config_.status_topic +
                             "' to its end did not complete within " + std::to_string(config_.startup_timeout_ms) +
                             " ms (status.storage.startup.timeout.ms): " + failure);
  }
  log->info(
      "status store started: topic '{}' on {}{}, client.id '{}', max.retries {}, backoff {}..{} ms x{} "
      "jitter {}",
      config_.status_topic, config_.uses_mock_cluster() ? "the embedded mock cluster " : "", bootstrap_servers_,
      config_.status_client_id(), r.max_retries, r.initial_backoff_ms, r.max_backoff_ms, r.backoff_multiplier,
      r.jitter_factor);
}

store::~store() { stop(); }

store_health store::health() const {
  store_health health;
  health.brokers_reachable = !link_->brokers_down();
  health.credential_failure = link_->credential_failure();
  return health;
}

namespace {
// CAF 0.17's actor clock is steady_clock, so the coalescer can compare this with its own now().
int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// What a caller does after offering updates to the ingest table: wake the coalescer when the table
/// was idle; log a refusal (the store is stopping) once.
void after_offer(ingest_table::offer_result result, const caf::actor& wake_target, std::atomic<bool>& refused_logged) {
  if (result == ingest_table::offer_result::wake_needed) {
    caf::anon_send(wake_target, wake_atom::value);
  } else if (result == ingest_table::offer_result::refused && !refused_logged.exchange(true)) {
    component_logger("store")->warn(
        "refusing status updates: the store is stopping or stopped (each is counted in "
        "status-update-after-stop-total)");
  }
}
}  // namespace

void store::send(status_update update) {
  update.put_ns = steady_now_ns();
  after_offer(ingest_->offer(std::move(update)), wake_target_, refused_logged_);
}

namespace {

/// make_update of a status whose trace is over the budget, with the trace cut to it: rare, so the
/// status is copied and a warning says what was cut.
template <class Status>
status_update update_with_trace_cut(const Status& s, bool safe, int32_t trace_max_bytes) {
  const auto budget = static_cast<std::size_t>(trace_max_bytes);
  Status cut = s;
  const std::size_t original = fit_trace(cut.value, budget).value_or(0);
  status_update update = make_update(cut, safe);
  component_logger("store")->warn(
      "{}: trace of {} bytes cut to {} (status.storage.trace.max.bytes={}, head and tail kept) so that the {} "
      "status is written; Connect would send it whole and lose it if the broker refused the record as too large",
      update.key, original, cut.value.trace->size(), budget, to_string(cut.value.state));
  return update;
}

}  // namespace

/// The update is encoded into this thread's buffer and copied into the ingest table's entry for the
/// key, so neither the encoding nor replacing a waiting update allocates once the buffers have grown
/// (docs/architecture.md, "The ingest"). A trace over budget takes the slow path, with its warning.
template <class Status>
void store::put_status(const Status& s, bool safe) {
  if (s.value.trace && s.value.trace->size() > static_cast<std::size_t>(config_.trace_max_bytes)) {
    send(update_with_trace_cut(s, safe, config_.trace_max_bytes));
    return;
  }
  thread_local status_update buffer;
  fill_update(buffer, s, safe);
  buffer.put_ns = steady_now_ns();
  after_offer(ingest_->offer_copy(buffer), wake_target_, refused_logged_);
}

void store::put(const connector_status& s) { put_status(s, false); }
void store::put_safe(const connector_status& s) { put_status(s, true); }
void store::put(const task_status& s) { put_status(s, false); }
void store::put_safe(const task_status& s) { put_status(s, true); }
void store::put(const topic_status& s) { send(make_update(s)); }
void store::delete_topic(const std::string& connector, const std::string& topic) {
  send(make_topic_deletion(connector, topic));
}

void store::put_all(std::vector<status_update> updates) {
  if (updates.empty()) return;
  const int64_t now = steady_now_ns();
  for (auto& u : updates) u.put_ns = now;
  after_offer(ingest_->offer_all(std::move(updates)), wake_target_, refused_logged_);
}

bool store::flush(std::chrono::milliseconds timeout) {
  if (stopped_) return true;
  bool done = false;
  caf::scoped_actor self{*system_};
  self->request(coalescer_, request_timeout(timeout), flush_atom::value)
      .receive([&](ok_atom) { done = true; }, [&](caf::error&) { done = false; });
  return done;
}

void store::set_metrics_reporter(metrics_reporter reporter, std::chrono::milliseconds interval) {
  stop_reporter_thread();
  if (!reporter || stopped_) return;
  reporter_ = std::move(reporter);
  reporter_stopping_ = false;
  interval = std::max(interval, std::chrono::milliseconds{1});
  reporter_thread_ = std::thread{[this, interval] {
    std::unique_lock lock{reporter_mutex_};
    while (!reporter_wake_.wait_for(lock, interval, [this] { return reporter_stopping_; })) {
      lock.unlock();
      report_metrics(std::nullopt, false);
      lock.lock();
    }
  }};
}

void store::stop_reporter_thread() {
  {
    std::lock_guard lock{reporter_mutex_};
    reporter_stopping_ = true;
  }
  reporter_wake_.notify_all();
  if (reporter_thread_.joinable()) reporter_thread_.join();
}

void store::report_metrics(std::optional<metrics_snapshot> snapshot, bool final) {
  if (!reporter_) return;
  try {
    if (!snapshot) snapshot = metrics();
    reporter_(metrics_report{metric_group,
                             {{"topic", config_.status_topic}, {"client-id", config_.status_client_id()}},
                             metric_samples(*snapshot),
                             final});
  } catch (const std::exception& e) {  // a reporter must not take the store down, nor a slow metrics actor
    component_logger("store")->warn("metrics report skipped: {}", e.what());
  }
}

metrics_snapshot store::metrics(std::chrono::milliseconds timeout) {
  metrics_actor target;
  {
    std::lock_guard lock{handles_mutex_};
    if (final_metrics_) {  // stopped (or stopping): the values after the drain, and the puts refused since
      metrics_snapshot final_values = *final_metrics_;
      final_values.updates_after_stop = ingest_->refused();
      return final_values;
    }
    target = metrics_;
  }
  std::optional<metrics_snapshot> result;
  std::string failure = "the store is stopped";
  if (target) {
    caf::scoped_actor self{*system_};
    self->request(target, request_timeout(timeout), get_atom::value)
        .receive([&](metrics_snapshot& s) { result = std::move(s); },
                 [&](caf::error& err) { failure = system_->render(err); });
  }
  if (!result) throw std::runtime_error("metrics unavailable: " + failure);
  result->updates_after_stop = ingest_->refused();
  return *result;
}

caf::timespan store::request_timeout(std::chrono::milliseconds timeout) {
  // CAF adds a request's timeout to its clock's now() in ns: milliseconds::max() ("wait forever")
  // would overflow into a deadline in the past. A year is forever here.
  return caf::timespan{
      std::clamp(timeout, std::chrono::milliseconds{0}, std::chrono::milliseconds{std::chrono::hours{24 * 365}})};
}

// The coalescer enforces the drain deadline itself; this margin only guards against a coalescer that
// cannot answer at all (drain is at most defaults::max_shutdown_drain_timeout_ms: no overflow).
constexpr std::chrono::seconds drain_answer_margin{5};

drain_report store::drain(std::chrono::milliseconds drain) {
  std::optional<drain_report> answer;
  std::string failure;
  {
    caf::scoped_actor self{*system_};
    self->request(coalescer_, caf::timespan{drain + drain_answer_margin}, stop_atom::value, caf::timespan{drain})
        .receive([&](drain_report& r) { answer = std::move(r); },
                 [&](caf::error& err) { failure = system_->render(err); });
  }
  // The final values, drain included, while the metrics actor still answers: the coalescer publishes
  // its counters before it answers a drain.
  std::optional<metrics_snapshot> last;
  try {
    last = metrics();
  } catch (const std::exception& e) {
    component_logger("store")->warn("no final metrics: {}", e.what());
  }
  drain_report report = answer ? std::move(*answer) : count_unanswered_drain(last, failure);
  {
    std::lock_guard lock{handles_mutex_};
    final_metrics_ = last;
  }
  if (last) report_metrics(last, true);
  return report;
}

drain_report store::count_unanswered_drain(std::optional<metrics_snapshot>& last, const std::string& why) {
  ingest_->close();  // nothing lands in the table after the count (later puts count as after-stop)
  const unanswered_drain_loss loss =
      unanswered_drain_loss_of(last ? last->counters : store_counters{}, ingest_->taken(), ingest_->waiting());
  if (last) count_as_failed(*last, loss);
  component_logger("store")->error(
      "the coalescer did not answer the shutdown drain ({}): {} status update(s) counted as failed ({} pending at "
      "its last published counters, {} taken from the ingest table after them, {} never taken){}",
      why, loss.total(), loss.pending, loss.unpublished, loss.waiting,
      last ? "" : "; the metrics actor did not answer either: every update ever taken is counted, an upper bound");
  return drain_report{loss.total(), {}};
}

void store::stop_actors() {
  auto log = component_logger("store");
  caf::scoped_actor self{*system_};
  // Stop every actor and wait until they are gone: the producer's and the view's states then have
  // shut their Kafka clients down, so the mock cluster (if any) can go after them.
  std::vector<caf::actor> actors;
  for (auto hdl : {caf::actor_cast<caf::actor>(coalescer_), caf::actor_cast<caf::actor>(producer_),
                   caf::actor_cast<caf::actor>(scheduler_), caf::actor_cast<caf::actor>(metrics_),
                   caf::actor_cast<caf::actor>(view_)})
    if (hdl) actors.push_back(hdl);
  for (auto& hdl : actors) {
    self->monitor(hdl);
    self->send_exit(hdl, caf::exit_reason::user_shutdown);
  }
  for (size_t i = 0; i < actors.size(); ++i)
    self->receive([](caf::down_msg&) {},
                  caf::after(std::chrono::seconds{30}) >> [&] { log->error("an actor did not stop within 30 s"); });
  std::lock_guard lock{handles_mutex_};
  coalescer_ = nullptr;
  producer_ = nullptr;
  scheduler_ = nullptr;
  metrics_ = nullptr;
  view_ = nullptr;
}

drain_report store::stop() {
  if (stopped_) return *stopped_;
  stop_reporter_thread();
  const drain_report report = drain(config_.shutdown_drain_timeout());
  stop_actors();
  if (owned_system_) {
    owned_system_.reset();  // waits for the (now stopped) actors
    owned_config_.reset();
  }
  mock_.reset();
  component_logger("store")->info("status store stopped ({} update(s) failed at shutdown)", report.failed);
  stopped_ = report;
  return report;
}

}  // namespace status_store
