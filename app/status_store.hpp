#pragma once
// The embedding API: a plain C++ facade over the four actors, for worker code that is not itself an
// actor. Every call is thread-safe. Updates are encoded on the caller's thread and handed to the
// coalescer without waiting; flush() and stop() are the only calls that block, and both are bounded.
//
// Code that is itself an actor can skip the facade and talk to actor() — the coalescer's typed
// interface (messages/protocol.hpp) — directly.
#include "app/mock_cluster.hpp"
#include "config/worker_config.hpp"
#include "messages/protocol.hpp"
#include "messages/status.hpp"

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace status_store {

struct store_options {
  /// Seed of the retry jitter; random when not given. Fixed seeds make runs reproducible.
  std::optional<uint64_t> jitter_seed;
  /// Scheduler threads of an owned actor system (0 = CAF's default: one per core).
  size_t scheduler_threads = 0;
};

class store {
 public:
  /// Starts the store in an actor system of its own. Throws std::runtime_error if the producer
  /// cannot be created (the message names the rejected setting).
  explicit store(const worker_config& config, store_options options = {});
  /// Starts the store inside the caller's actor system, which must outlive the store.
  store(caf::actor_system& system, const worker_config& config, store_options options = {});
  /// Stops (draining) if stop() was not called.
  ~store();
  store(const store&) = delete;
  store& operator=(const store&) = delete;

  // ---- writes: never block; the latest value per key wins --------------------------------------------
  void put(const connector_status& status);
  void put_safe(const connector_status& status);
  void put(const task_status& status);
  void put_safe(const task_status& status);
  void put(const topic_status& status);
  void delete_topic(const std::string& connector, const std::string& topic);

  /// Blocks until every update accepted before the call is acknowledged, failed or superseded, or
  /// `timeout` elapses; returns false on timeout. Unlike Connect's flush, it waits for retries too.
  bool flush(std::chrono::milliseconds timeout);

  /// Drains for at most status.storage.shutdown.drain.timeout.ms, counts what is left as failed (and
  /// logs its keys), then stops the actors and the producer. Idempotent.
  drain_report stop();

  /// A consistent snapshot of every metric. Throws std::runtime_error if the metrics actor does not
  /// answer within `timeout`.
  metrics_snapshot metrics(std::chrono::milliseconds timeout = std::chrono::seconds{5});

  /// The coalescer's typed interface, for callers that are actors themselves.
  coalescer_actor actor() const { return coalescer_; }
  const worker_config& config() const { return config_; }
  /// The bootstrap servers in use (the embedded mock cluster's ports when bootstrap.servers=mock).
  const std::string& bootstrap_servers() const { return bootstrap_servers_; }
  /// The embedded mock cluster, or nullptr when a real cluster is used.
  mock_cluster* embedded_mock_cluster() const { return mock_.get(); }

 private:
  void start(store_options options);
  void send(status_update update);

  worker_config config_;
  std::unique_ptr<caf::actor_system_config> owned_config_;
  std::unique_ptr<caf::actor_system> owned_system_;
  caf::actor_system* system_;
  std::unique_ptr<mock_cluster> mock_;
  std::string bootstrap_servers_;
  coalescer_actor coalescer_;
  producer_actor producer_;
  retry_scheduler_actor scheduler_;
  metrics_actor metrics_;
  std::optional<drain_report> stopped_;
};

}  // namespace status_store
