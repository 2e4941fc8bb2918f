#pragma once
// The librdkafka producer behind producer I/O, as a small plain C++ object (no actors inside):
// create from settings, produce one record, and hand delivery reports to a sink in the batches
// librdkafka serves them in. Reports are served by one dedicated poll thread blocking in
// rd_kafka_poll — no busy polling, and never a blocking call on a CAF scheduler thread.
#include "actors/credential_failure_watch.hpp"
#include "config/client_settings.hpp"
#include "messages/protocol.hpp"

#include <librdkafka/rdkafka.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace status_store {

class kafka_producer_client {
 public:
  using delivery_sink = std::function<void(std::vector<delivery_result>&&)>;
  /// Told (from the poll thread) when no broker is reachable (false) and when one is again (true).
  using reachability_sink = std::function<void(bool)>;

  /// Throws std::runtime_error naming the setting librdkafka rejected (secrets masked). Every record
  /// carries `writer_id` in its writer header (messages/record_writer_header.hpp).
  kafka_producer_client(const kafka_settings& settings, const std::string& topic, std::string writer_id);
  ~kafka_producer_client();
  kafka_producer_client(const kafka_producer_client&) = delete;
  kafka_producer_client& operator=(const kafka_producer_client&) = delete;

  /// Enqueues one record; returns 0 or the synchronous error (e.g. _QUEUE_FULL, MSG_SIZE_TOO_LARGE).
  rd_kafka_resp_err_t produce(const outgoing_record& record);

  /// Starts the poll thread; reports go to `sink` and reachability changes to `reachability` from
  /// that thread.
  void start_polling(delivery_sink sink, reachability_sink reachability);

  /// No broker is reachable (librdkafka said _ALL_BROKERS_DOWN and no probe has reached one since):
  /// records are better held by the caller than queued here (docs/retries.md, "Outage: hold and purge").
  bool brokers_down() const { return brokers_down_.load(std::memory_order_acquire); }

  /// Stops polling, purges what librdkafka still holds (its reports are discarded: the coalescer has
  /// already drained or counted them) and destroys the producer. Idempotent.
  void shutdown();

  rd_kafka_t* handle() const { return rk_; }

 private:
  static void on_delivery(rd_kafka_t*, const rd_kafka_message_t* msg, void* opaque);
  static void on_error(rd_kafka_t*, int error, const char* reason, void* opaque);
  void poll_loop();
  void probe_brokers();

  rd_kafka_t* rk_ = nullptr;
  rd_kafka_topic_t* topic_ = nullptr;
  std::string writer_id_;
  delivery_sink sink_;
  std::vector<delivery_result> batch_;  // filled by on_delivery during rd_kafka_poll (poll thread)
  std::atomic<bool> polling_{false};
  reachability_sink reachability_;
  // Outage hold: set by the error callback, cleared when a metadata probe reaches a broker (both on
  // the poll thread); read by producer I/O before it hands records over.
  std::atomic<bool> brokers_down_{false};
  std::chrono::steady_clock::time_point next_probe_;
  // A rejected password or TLS set-up (see credential_failure_watch.hpp). While it lasts, queued
  // records are purged and their reports, like timed-out ones, carry the credential error, which the
  // error table does not retry: each update fails after one attempt instead of waiting out
  // message.timeout.ms and its retries against a broker that will keep refusing it.
  credential_failure_watch credentials_{"status producer"};
  std::thread poller_;
};

}  // namespace status_store
