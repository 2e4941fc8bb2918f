#pragma once
// The embedding API, installed as <status_store/store.hpp>: a plain C++ facade over the actors, for
// worker code that is not itself an actor — Connect's StatusBackingStore in C++. Every call is
// thread-safe. Updates are encoded on the caller's thread and put into the store's ingest table, where
// the newest update of a key replaces one still waiting: a put never waits on Kafka, only for the
// table's lock (a map insert; the coalescer's take, docs/architecture.md#the-ingest), and memory is
// bounded by the number of keys, whatever the update rate. Queries, flush() and stop()
// block, each bounded by a timeout.
//
// One error rule (docs/embedding.md, "Errors"): a call that cannot do what it says throws store_error
// (store_error.hpp), whose kind says why: stopped, timed_out or failed. What a call answers is not an
// error: flush()'s false at its timeout, a query's nothing for an unknown key, stop()'s failed count.
//
// Start-up (the constructor) creates or verifies the status topic and replays it to its end, so the
// view is complete when the constructor returns, like Connect's start(). As in Connect, a status
// becomes visible to queries when it is read back from the topic, not when it is put.
//
// Code that is itself an actor can skip the facade and talk to actor() — put, put batch and flush,
// the embedder's part of the coalescer's typed interface (messages/protocol.hpp) — directly; use one way per key, as updates put into the ingest
// and updates sent as messages are not ordered with each other.
//
// Public: it includes only messages/, config/ and its neighbour metric_names.hpp (relative, so the
// same line works installed), never an actor's or the Kafka client library's header.
#include "config/worker_config.hpp"
#include "messages/alert_transport.hpp"
#include "messages/history.hpp"
#include "messages/protocol.hpp"
#include "messages/status.hpp"
#include "metric_names.hpp"
#include "store_error.hpp"

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace status_store {

class ingest_table;           // actors/ingest/ingest_table.hpp
class kafka_producer_client;  // actors/kafka/kafka_producer_client.hpp
class mock_cluster;           // actors/kafka/mock_cluster.hpp (not installed: tests use it)
class periodic_reporter;      // app/store/periodic_reporter.hpp (not installed)

/// One report to a metrics reporter: every metric of one snapshot (the names, kinds and help texts
/// the Prometheus endpoint and the CLI show, app/store/metric_names.hpp) under the KIP's group name, with
/// the tags that tell this store from another in the same process.
struct metrics_report {
  std::string_view group;                   // "status-backing-store-metrics"
  std::map<std::string, std::string> tags;  // "topic": the status topic, "client-id": its clients' id
  std::vector<metric_sample> metrics;
  bool final = false;  // the last report, made by stop() after the drain
  // The status view's labelled families (metric_names.hpp, labelled_metrics), as GET /metrics serves
  // them: a series per connector and per task with its state as a label, the counts by state, then
  // each connector's FAILED entries and flapping keys; empty if the view did not answer.
  std::vector<labelled_sample> labelled;
  // The write path's hop histograms (metric_names.hpp, histogram_metrics), as GET /metrics serves them;
  // their quantiles are among `metrics` too.
  std::vector<histogram_sample> histograms;
};
/// Called on a thread of the store's own: it should hand the values on and return.
using metrics_reporter = std::function<void(const metrics_report&)>;

/// Whether the store can write now (what `status-store run` answers on GET /health).
struct store_health {
  bool brokers_reachable = true;                  // false while the Kafka client reports every broker down
  std::optional<std::string> credential_failure;  // the brokers refuse the credentials: the client's reason
  bool healthy() const { return brokers_reachable && !credential_failure; }
};

struct store_options {
  /// Seed of the retry jitter; random when not given. Fixed seeds make runs reproducible.
  std::optional<uint64_t> jitter_seed;
  /// Scheduler threads of an owned actor system (0: one per core, at least 2).
  size_t scheduler_threads = 0;
  /// Where the alerts of status.alert.webhook.url go (messages/alert_transport.hpp; `status-store run`
  /// gives its HTTP client, app/webhook/). None: no alerts, and a warning at start if the URL is set.
  std::shared_ptr<alert_transport> alerts = nullptr;
  /// Told of every record the brokers acknowledged: its key, the generation of the value it carried
  /// (0 for a topic status or a tombstone) and when the Kafka client reported it (steady clock, ns).
  /// Called on the coalescer's thread: it must return at once. For measuring (the benchmark's put ->
  /// latest durable, docs/benchmarks.md#latency); none by default.
  std::function<void(std::string_view key, int32_t generation, int64_t acknowledged_ns)> on_acknowledged = nullptr;
};

class store {
 public:
  /// Starts the store in an actor system of its own. Throws config_error for a status topic that is
  /// not compacted, and std::runtime_error if a client cannot be created (the message names the
  /// rejected setting) or start-up does not complete within status.storage.startup.timeout.ms
  /// (store_error, timed_out, when the replay does not): then there is no store to call.
  explicit store(const worker_config& config, store_options options = {});
  /// Starts the store inside the caller's actor system, which must outlive the store.
  store(caf::actor_system& system, const worker_config& config, store_options options = {});
  /// Stops (draining) if stop() was not called.
  ~store();
  store(const store&) = delete;
  store& operator=(const store&) = delete;

  // ---- writes: never block; the latest value per key wins --------------------------------------------
  // A trace longer than status.storage.trace.max.bytes is cut (head and tail kept, marked; a warning
  // names the key) so that the status itself is always written.
  void put(const connector_status& status);
  void put_safe(const connector_status& status);
  void put(const task_status& status);
  void put_safe(const task_status& status);
  void put(const topic_status& status);
  void delete_topic(const std::string& connector, const std::string& topic);
  /// Many updates under one lock of the ingest table: for callers that report statuses in bursts (a
  /// rebalance, a restart). Build each with make_update (messages/status_updates.hpp), after
  /// fit_trace(value, config.trace_max_bytes) as the single puts do. Same semantics as the single
  /// puts, in order.
  void put_all(std::vector<status_update> updates);
  /// put() of each status, in order, in chunks of put_all_chunk under one lock of the ingest table
  /// each: encoded into a per-thread batch, so once its buffers have grown a call allocates nothing
  /// (docs/architecture.md, "The ingest"). Traces over budget are cut as put() cuts them.
  void put_all(std::span<const connector_status> statuses);
  void put_all(std::span<const task_status> statuses);
  static constexpr std::size_t put_all_chunk = 1024;

  /// Blocks until every update accepted before the call is acknowledged, failed or superseded, or
  /// `timeout` elapses; returns false on timeout. Unlike Connect's flush, it waits for retries too.
  /// Throws store_error: stopped after stop() (what the drain left is in its report), failed if the
  /// coalescer answers with an error or exits.
  bool flush(std::chrono::milliseconds timeout);

  /// Drains for at most status.storage.shutdown.drain.timeout.ms, counts what is left as failed (and
  /// logs its keys), then stops the actors and the producer. Idempotent: later calls return the same
  /// report. Never throws (the destructor calls it): a loss is in the report. A coalescer that does not
  /// answer the drain makes stop() count every update it could not see resolved as failed (and log it
  /// at ERROR), never 0. Puts from then on are refused, logged once and counted in
  /// status-update-after-stop-total.
  drain_report stop();

  /// The KIP's setMetrics(ConnectMetrics), for a worker with a metrics registry of its own: calls
  /// `reporter` with every metric every `interval`, from a thread of the store's own, and once more
  /// from stop() with the final values. Replaces an earlier reporter; registering none costs nothing.
  void set_metrics_reporter(metrics_reporter reporter, std::chrono::milliseconds interval);

  /// A consistent snapshot of every metric. Throws store_error (timed_out) if the metrics actor does not
  /// answer within `timeout`. After stop(): the final values (those of the final report), with
  /// status-update-after-stop-total still counting the puts refused since; store_error (stopped) if the
  /// metrics actor gave none at the drain.
  metrics_snapshot metrics(std::chrono::milliseconds timeout = std::chrono::seconds{5});

  // ---- reads: what the topic says (Connect's getters); each throws store_error: timed_out when the
  // view does not answer within the query timeout, stopped after stop() ---------------------------------
  std::optional<connector_status> get(const std::string& connector);
  std::optional<task_status> get(const std::string& connector, int32_t task);
  std::vector<task_status> get_all(const std::string& connector);
  std::optional<topic_status> get_topic(const std::string& connector, const std::string& topic);
  std::vector<topic_status> get_all_topics(const std::string& connector);
  /// Connectors with a known status, sorted.
  std::vector<std::string> connectors();
  /// All of the above for one connector, in one request.
  connector_view describe(const std::string& connector);
  /// describe() for every connector with a status, sorted by name, in one request.
  std::vector<connector_view> describe_all();

  // ---- the past, as the view read it from the topic (docs/operations.md); each throws on timeout ----
  /// A connector's transitions, oldest first, and how far back the store's history reaches.
  key_history history(const std::string& connector);
  /// A task's transitions, likewise.
  key_history history(const std::string& connector, int32_t task);
  /// The connectors and tasks flapping now (status.flap.*), in key order, each since when.
  std::vector<flapping_key> flapping();
  /// Per connector with a status: its and its tasks' entries into FAILED since the store started, and
  /// how many of them flap now (what /metrics and the metrics reporter show), in name order.
  history_counts counts_by_connector();
  /// What the status page shows, from one pass over the view: describe_all(), when each connector's
  /// and task's status last changed, and flapping() (docs/http-service.md#the-status-page).
  view_overview overview();

  /// How long each query waits for the view (default 5 s).
  void set_query_timeout(std::chrono::milliseconds timeout) { query_timeout_ = timeout; }

  /// The store's typed interface for callers that are actors themselves: put, put batch and flush
  /// (messages/protocol.hpp); the coalescer's other messages are its peers' only.
  status_store_actor actor() const { return coalescer_; }
  /// The status view's typed interface (queries), for callers that are actors themselves.
  status_view_actor view() const { return view_; }
  const worker_config& config() const { return config_; }
  /// The bootstrap servers in use (the embedded mock cluster's ports when bootstrap.servers=mock).
  const std::string& bootstrap_servers() const { return bootstrap_servers_; }
  /// The Kafka cluster's id, read from the metadata at start-up (empty if no broker said it).
  const std::string& kafka_cluster_id() const { return kafka_cluster_id_; }
  /// Whether brokers are reachable and accept the credentials now; never blocks.
  store_health health() const;
  /// The embedded mock cluster, or nullptr when a real cluster is used. For tests, which include
  /// actors/kafka/mock_cluster.hpp to drive it; embedders see an opaque pointer.
  mock_cluster* embedded_mock_cluster() const { return mock_.get(); }
  /// This instance's writer id: the value of the writer header on every record it writes
  /// (messages/record_writer_header.hpp); new for every store.
  const std::string& writer_id() const { return writer_id_; }

 private:
  void start(store_options options);
  /// The alert sender over `transport` when status.alert.webhook.url is set (null otherwise).
  alert_sender_actor spawn_alerts(std::shared_ptr<alert_transport> transport, uint64_t jitter_seed);
  /// Creates the topic on the embedded mock cluster, or creates or verifies it on the brokers.
  void prepare_topic(std::chrono::milliseconds timeout);
  /// Waits until the view holds everything the topic held at start; stops the actors and throws if not.
  void await_replay(std::chrono::milliseconds timeout);
  /// `handle` as stop() leaves it (null once stopped), read under the handles' lock.
  template <class Handle>
  Handle current(const Handle& handle) {
    std::lock_guard lock{handles_mutex_};
    return handle;
  }
  void send(status_update update);
  template <class Status>
  void put_status(const Status& s, bool safe);  // put and put_safe (defined in store_writes.cpp)
  template <class Status>
  void put_all_statuses(std::span<const Status> statuses);
  /// Hands `snapshot` (or, if none, a fresh one) to the reporter, if one is registered.
  void report_metrics(std::optional<metrics_snapshot> snapshot, bool final);
  /// `timeout` as a CAF request timeout, saturated so that no conversion overflows.
  static caf::timespan request_timeout(std::chrono::milliseconds timeout);
  /// Asks the coalescer to drain for at most `drain`; keeps and reports the final metrics.
  drain_report drain(std::chrono::milliseconds drain);
  /// The drain got no answer: counts as failed what the facade can see was pending
  /// (app/store/unanswered_drain.hpp), in the report and in `last`, and logs it.
  drain_report count_unanswered_drain(std::optional<metrics_snapshot>& last, const std::string& why);
  /// Stops every actor and waits until they are gone.
  void stop_actors();

  worker_config config_;
  std::unique_ptr<caf::actor_system_config> owned_config_;
  std::unique_ptr<caf::actor_system> owned_system_;
  caf::actor_system* system_;
  std::unique_ptr<mock_cluster> mock_;
  std::string bootstrap_servers_;
  std::string writer_id_;
  std::string kafka_cluster_id_;
  // The producer client's link flags, set by the Kafka client's callbacks and read by health() only: the
  // facade reads them as it reads metrics, and no actor reads them from here.
  std::shared_ptr<const kafka_producer_client> link_;
  std::shared_ptr<ingest_table> ingest_;
  caf::actor wake_target_;  // the coalescer, for wake messages; never reset while the store exists
  std::atomic<bool> refused_logged_{false};
  coalescer_actor coalescer_;
  producer_actor producer_;
  retry_scheduler_actor scheduler_;
  metrics_actor metrics_;
  status_view_actor view_;
  alert_sender_actor alerts_;  // null without a webhook
  std::chrono::milliseconds query_timeout_{5000};
  // The metrics reporter and its thread (none until one is registered).
  metrics_reporter reporter_;
  std::unique_ptr<periodic_reporter> reporter_thread_;
  std::optional<drain_report> stopped_;
  // The metrics handle and the values after the drain, which metrics() answers from then on; read by
  // callers' threads while stop() runs.
  std::mutex handles_mutex_;
  std::optional<metrics_snapshot> final_metrics_;
};

}  // namespace status_store
