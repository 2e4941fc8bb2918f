#pragma once
// The librdkafka producer behind producer I/O, as a small plain C++ object (no actors inside):
// create from settings, produce one record, and hand delivery reports to a sink in the batches
// librdkafka serves them in. Reports are served by one dedicated poll thread blocking in
// rd_kafka_poll — no busy polling, and never a blocking call on a CAF scheduler thread. Every
// report leaves here judged (delivery_result::verdict), so the actors never see librdkafka's codes;
// librdkafka's handles are only declared, so the producer actor compiles without librdkafka.
#include "config/client_settings.hpp"
#include "messages/payloads.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

// librdkafka's rd_kafka_t, rd_kafka_topic_t and rd_kafka_message_t.
struct rd_kafka_s;
struct rd_kafka_topic_s;
struct rd_kafka_message_s;

namespace status_store {

class credential_failure_watch;

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

  /// Enqueues one record. A record librdkafka refuses at once (e.g. _QUEUE_FULL, MSG_SIZE_TOO_LARGE)
  /// gets its delivery report here, judged, instead of from the poll thread.
  std::optional<delivery_result> produce(const outgoing_record& record);

  /// The report of a record kept back during an outage hold, as librdkafka reports a purged one
  /// (_PURGE_QUEUE, judged not_sent).
  delivery_result not_sent(const outgoing_record& record) const;

  /// Starts the poll thread; reports go to `sink` and reachability changes to `reachability` from
  /// that thread.
  void start_polling(delivery_sink sink, reachability_sink reachability);

  /// No broker is reachable (librdkafka said _ALL_BROKERS_DOWN and no probe has reached one since):
  /// records are better held by the caller than queued here (docs/retries.md, "Outage: hold and purge").
  bool brokers_down() const { return brokers_down_.load(std::memory_order_acquire); }

  /// The brokers refuse this client's credentials now: librdkafka's reason (names the broker and the
  /// cause, never a credential), or nullopt.
  std::optional<std::string> credential_failure() const;

  /// The Kafka cluster's id from the metadata (empty if no broker answered within `timeout`).
  std::string cluster_id(std::chrono::milliseconds timeout) const;

  /// Stops polling, purges what librdkafka still holds (its reports are discarded: the coalescer has
  /// already drained or counted them) and destroys the producer. Idempotent.
  void shutdown();

 private:
  static void on_delivery(rd_kafka_s*, const rd_kafka_message_s* msg, void* opaque);
  static void on_error(rd_kafka_s*, int error, const char* reason, void* opaque);
  void poll_loop();
  void probe_brokers();

  rd_kafka_s* rk_ = nullptr;
  rd_kafka_topic_s* topic_ = nullptr;
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
  std::unique_ptr<credential_failure_watch> credentials_;
  std::thread poller_;
};

}  // namespace status_store
