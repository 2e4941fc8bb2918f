#include "app/store/store.hpp"

#include "actors/alert_sender_actor.hpp"
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
#include "app/store/periodic_reporter.hpp"
#include "app/store/request_or_throw.hpp"
#include "app/store/unanswered_drain.hpp"
#include "config/client_settings.hpp"
#include "config/logging.hpp"
#include "messages/record_writer_header.hpp"

#include "caf/atom.hpp"
#include "caf/scoped_actor.hpp"

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
  // One worker per core (at least 2), not CAF's default of at least 4: on a small machine the extra
  // workers only wake and sleep in turn beside librdkafka's threads (docs/benchmarks.md, "Latency").
  const size_t threads = options.scheduler_threads > 0 ? options.scheduler_threads
                                                       : std::max<size_t>(2, std::thread::hardware_concurrency());
  owned_config_->set("scheduler.max-threads", threads);
  owned_system_ = std::make_unique<caf::actor_system>(*owned_config_);
  system_ = owned_system_.get();
  start(options);
}

store::store(caf::actor_system& system, const worker_config& config, store_options options)
    : config_(config), system_(&system) {
  start(options);
}

namespace {

/// What is left of status.storage.startup.timeout.ms, at least 1 ms (the clients take 0 as "do not wait").
class startup_deadline {
 public:
  explicit startup_deadline(int64_t timeout_ms) : timeout_{timeout_ms} {}
  std::chrono::milliseconds remaining() const {
    // Elapsed time rounded down, so that a fresh deadline still says the whole timeout in its errors.
    auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_);
    return std::max(timeout_ - elapsed, std::chrono::milliseconds{1});
  }

 private:
  std::chrono::milliseconds timeout_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

/// The topic's reader, positioned at its end. A topic created a moment ago may have no partition
/// leaders yet; ListOffsets then answers NOT_LEADER_FOR_PARTITION. Like Connect's KafkaBasedLog, it
/// tries again until the start-up deadline.
std::shared_ptr<status_topic_follower> open_reader(const kafka_settings& settings, const worker_config& config,
                                                   const std::string& writer_id, const startup_deadline& deadline) {
  for (auto backoff = std::chrono::milliseconds{100};;
       backoff = std::min(backoff * 2, std::chrono::milliseconds{1000})) {
    try {
      return std::make_shared<status_topic_follower>(settings, config.status_topic, deadline.remaining(), writer_id);
    } catch (const transient_kafka_error& e) {
      if (deadline.remaining() <= backoff)
        throw std::runtime_error(std::string{e.what()} +
                                 " (still failing when status.storage.startup.timeout.ms ran out)");
      component_logger("store")->info("{}; retrying in {} ms", e.what(), backoff.count());
      std::this_thread::sleep_for(backoff);  // start-up, on the caller's thread: no actor exists yet
    }
  }
}

void log_started(const worker_config& config, const std::string& bootstrap_servers) {
  const auto& r = config.retry;
  component_logger("store")->info(
      "status store started: topic '{}' on {}{}, client.id '{}', max.retries {}, backoff {}..{} ms x{} "
      "jitter {}",
      config.status_topic, config.uses_mock_cluster() ? "the embedded mock cluster " : "", bootstrap_servers,
      config.status_client_id(), r.max_retries, r.initial_backoff_ms, r.max_backoff_ms, r.backoff_multiplier,
      r.jitter_factor);
}

}  // namespace

void store::start(store_options options) {
  const startup_deadline deadline{config_.startup_timeout_ms};
  prepare_topic(deadline.remaining());
  kafka_settings settings = producer_settings(config_);
  kafka_settings reader_settings = consumer_settings(config_);
  if (mock_) {
    settings.emplace_back("bootstrap.servers", bootstrap_servers_);
    reader_settings.emplace_back("bootstrap.servers", bootstrap_servers_);
  }
  writer_id_ = new_writer_id();
  auto client = std::make_shared<kafka_producer_client>(settings, config_.status_topic, writer_id_);
  link_ = client;
  kafka_cluster_id_ = client->cluster_id(std::min(deadline.remaining(), std::chrono::milliseconds{5000}));
  auto reader = open_reader(reader_settings, config_, writer_id_, deadline);
  component_logger("store")->info(
      "replaying status topic '{}' ({} record(s) at start); this store writes as '{}' ({} header)",
      config_.status_topic, reader->records_at_start(), writer_id_, writer_header_name);

  const auto& r = config_.retry;
  const uint64_t jitter_seed = options.jitter_seed ? *options.jitter_seed : std::random_device{}();
  retry_scheduler_config scheduler_config{r, jitter_seed};
  metrics_ = spawn_metrics(*system_);
  alerts_ = spawn_alerts(options.alerts, jitter_seed + 1);
  scheduler_ = spawn_retry_scheduler(*system_, scheduler_config);
  producer_ = spawn_producer(*system_, std::move(client));
  ingest_ = std::make_shared<ingest_table>();
  coalescer_ = spawn_coalescer(*system_, coalescer_config{r, config_.message_timeout_ms, options.on_acknowledged},
                               producer_, scheduler_, metrics_, ingest_);
  wake_target_ = caf::actor_cast<caf::actor>(coalescer_);  // kept until destruction: puts racing stop() are safe
  view_ = spawn_status_view(*system_, coalescer_, metrics_, std::move(reader), view_history_of(config_), alerts_,
                            view_thread::own);
  await_replay(deadline.remaining());
  log_started(config_, bootstrap_servers_);
}

alert_sender_actor store::spawn_alerts(std::shared_ptr<alert_transport> transport, uint64_t jitter_seed) {
  if (!config_.alert.enabled()) return {};
  if (!transport) {
    component_logger("store")->warn(
        "status.alert.webhook.url is set, but this store was given no alert transport (store_options::alerts): "
        "no webhook alerts");
    return {};
  }
  component_logger("store")->info("webhook alerts go to {} (queue of {}, the status.storage.retry.* backoff)",
                                  transport->describe(), config_.alert.queue_capacity);
  const alert_sender_config sender{config_.retry, jitter_seed,
                                   static_cast<std::size_t>(std::max(config_.alert.queue_capacity, 1)),
                                   config_.status_topic};
  return spawn_alert_sender(*system_, sender, std::move(transport), metrics_);
}

void store::prepare_topic(std::chrono::milliseconds timeout) {
  if (config_.uses_mock_cluster()) {
    // The mock has no CreateTopics: create the topic through its own API.
    mock_ = std::make_unique<mock_cluster>(3);
    mock_->create_topic(config_.status_topic, config_.partitions > 0 ? config_.partitions : defaults::partitions,
                        config_.replication_factor);
    bootstrap_servers_ = mock_->bootstrap_servers();
    return;
  }
  bootstrap_servers_ = config_.bootstrap_servers;
  kafka_settings admin = admin_settings(config_);
  admin.emplace_back("bootstrap.servers", bootstrap_servers_);
  ensure_status_topic(admin, config_, timeout);
}

void store::await_replay(std::chrono::milliseconds timeout) {
  // Like Connect's start(): return only once the view holds everything the topic held at start.
  try {
    request_or_throw<ok_atom>(*system_, view_, caf::timespan{timeout}, "the view's replay", await_atom::value);
  } catch (const store_error& e) {
    stop_actors();
    mock_.reset();
    stopped_ = drain_report{};
    throw store_error{e.kind(), "replaying status topic '" + config_.status_topic +
                                    "' to its end did not complete within " +
                                    std::to_string(config_.startup_timeout_ms) +
                                    " ms (status.storage.startup.timeout.ms): " + e.what()};
  }
}

store::~store() { stop(); }

store_health store::health() const {
  store_health health;
  health.brokers_reachable = !link_->brokers_down();
  health.credential_failure = link_->credential_failure();
  return health;
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
  try {
    answer = request_or_throw<drain_report>(*system_, current(coalescer_), caf::timespan{drain + drain_answer_margin},
                                            "the drain", stop_atom::value, caf::timespan{drain});
  } catch (const store_error& e) {
    failure = e.what();
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
                   caf::actor_cast<caf::actor>(view_), caf::actor_cast<caf::actor>(alerts_)})
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
  alerts_ = nullptr;
}

drain_report store::stop() {
  if (stopped_) return *stopped_;
  reporter_thread_.reset();
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
