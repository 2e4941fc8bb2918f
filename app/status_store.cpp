#include "app/status_store.hpp"

#include "actors/coalescer_actor.hpp"
#include "actors/kafka_producer_client.hpp"
#include "actors/metrics_actor.hpp"
#include "actors/producer_io_actor.hpp"
#include "actors/retry_scheduler_actor.hpp"
#include "config/client_settings.hpp"
#include "config/logging.hpp"
#include "messages/status_record_codec.hpp"

#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"

#include <random>
#include <stdexcept>

namespace status_store {

namespace {

status_update to_update(status_record record, bool safe, const status_value* value) {
  status_update u;
  u.key = std::move(record.key);
  u.tombstone = !record.value.has_value();
  if (record.value) u.value = std::move(*record.value);
  u.safe = safe;
  if (value) {
    u.worker_id = value->worker_id;
    u.generation = value->generation;
  }
  return u;
}

}  // namespace

store::store(const worker_config& config, store_options options) : config_(config) {
  owned_config_ = std::make_unique<caf::actor_system_config>();
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
  kafka_settings settings = producer_settings(config_);
  if (config_.uses_mock_cluster()) {
    mock_ = std::make_unique<mock_cluster>(3);
    mock_->create_topic(config_.status_topic, config_.partitions > 0 ? config_.partitions : defaults::partitions,
                        config_.replication_factor);
    bootstrap_servers_ = mock_->bootstrap_servers();
    settings.emplace_back("bootstrap.servers", bootstrap_servers_);
  } else {
    bootstrap_servers_ = config_.bootstrap_servers;
  }
  auto client = std::make_shared<kafka_producer_client>(settings, config_.status_topic);

  const auto& r = config_.retry;
  retry_scheduler_config scheduler_config{
      backoff_policy{r.initial_backoff_ms, r.max_backoff_ms, r.backoff_multiplier, r.jitter_factor},
      options.jitter_seed ? *options.jitter_seed : std::random_device{}()};
  metrics_ = spawn_metrics(*system_);
  scheduler_ = spawn_retry_scheduler(*system_, scheduler_config);
  producer_ = spawn_producer_io(*system_, std::move(client));
  coalescer_ = spawn_coalescer(*system_, coalescer_config{static_cast<uint32_t>(r.max_retries)}, producer_,
                               scheduler_, metrics_);
  log->info("status store started: topic '{}' on {}{}, client.id '{}', max.retries {}, backoff {}..{} ms x{} "
            "jitter {}",
            config_.status_topic, config_.uses_mock_cluster() ? "the embedded mock cluster " : "",
            bootstrap_servers_, config_.status_client_id(), r.max_retries, r.initial_backoff_ms, r.max_backoff_ms,
            r.backoff_multiplier, r.jitter_factor);
}

store::~store() { stop(); }

void store::send(status_update update) {
  caf::anon_send(coalescer_, put_atom::value, std::move(update));
}

void store::put(const connector_status& s) { send(to_update(encode_connector_record(s), false, &s.value)); }
void store::put_safe(const connector_status& s) { send(to_update(encode_connector_record(s), true, &s.value)); }
void store::put(const task_status& s) { send(to_update(encode_task_record(s), false, &s.value)); }
void store::put_safe(const task_status& s) { send(to_update(encode_task_record(s), true, &s.value)); }
void store::put(const topic_status& s) { send(to_update(encode_topic_record(s), false, nullptr)); }
void store::delete_topic(const std::string& connector, const std::string& topic) {
  send(to_update(encode_topic_tombstone(topic, connector), false, nullptr));
}

bool store::flush(std::chrono::milliseconds timeout) {
  if (stopped_) return true;
  bool done = false;
  caf::scoped_actor self{*system_};
  self->request(coalescer_, caf::timespan{timeout}, flush_atom::value)
      .receive([&](ok_atom) { done = true; }, [&](caf::error&) { done = false; });
  return done;
}

metrics_snapshot store::metrics(std::chrono::milliseconds timeout) {
  std::optional<metrics_snapshot> result;
  std::string failure;
  {
    caf::scoped_actor self{*system_};
    self->request(metrics_, caf::timespan{timeout}, get_atom::value)
        .receive([&](metrics_snapshot& s) { result = std::move(s); },
                 [&](caf::error& err) { failure = system_->render(err); });
  }
  if (!result) throw std::runtime_error("metrics unavailable: " + failure);
  return *result;
}

drain_report store::stop() {
  if (stopped_) return *stopped_;
  auto log = component_logger("store");
  const auto drain = std::chrono::milliseconds{config_.shutdown_drain_timeout_ms};
  drain_report report;
  {
    caf::scoped_actor self{*system_};
    // The coalescer enforces the drain deadline itself; the extra margin only guards against a
    // coalescer that cannot answer at all.
    self->request(coalescer_, caf::timespan{drain + std::chrono::seconds{5}}, stop_atom::value, caf::timespan{drain})
        .receive([&](drain_report& r) { report = std::move(r); },
                 [&](caf::error& err) { log->error("drain did not complete: {}", system_->render(err)); });
    // Stop all four and wait until they are gone: the producer's state then has shut the librdkafka
    // producer down, so the mock cluster (if any) can go after it.
    for (auto hdl : {caf::actor_cast<caf::actor>(coalescer_), caf::actor_cast<caf::actor>(producer_),
                     caf::actor_cast<caf::actor>(scheduler_), caf::actor_cast<caf::actor>(metrics_)}) {
      self->monitor(hdl);
      self->send_exit(hdl, caf::exit_reason::user_shutdown);
    }
    for (int i = 0; i < 4; ++i)
      self->receive([](caf::down_msg&) {}, caf::after(std::chrono::seconds{30}) >> [&] {
        log->error("an actor did not stop within 30 s");
      });
  }
  coalescer_ = nullptr;
  producer_ = nullptr;
  scheduler_ = nullptr;
  metrics_ = nullptr;
  if (owned_system_) {
    owned_system_.reset();  // waits for the (now stopped) actors
    owned_config_.reset();
  }
  mock_.reset();
  log->info("status store stopped ({} update(s) failed at shutdown)", report.failed);
  stopped_ = report;
  return report;
}

}  // namespace status_store
