#pragma once
// status_topic_follower: the status view's reader thread. It replays the status topic from the
// beginning and then keeps following it, handing records to a sink in batches (one actor message per batch)
// and saying once when the replay has reached the end offsets seen at start-up. Blocks only in
// rd_kafka_consumer_poll on its own thread, never on a CAF scheduler thread.
#include "config/client_settings.hpp"
#include "messages/payloads.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace status_store {

class topic_consumer;  // actors/kafka/topic_consumer.hpp: librdkafka stays out of the status view

class status_topic_follower {
 public:
  using records_sink = std::function<void(std::vector<consumed_record>&&)>;
  using caught_up_sink = std::function<void()>;

  /// Connects and captures the end offsets now (throws std::runtime_error on failure), so a bad
  /// configuration fails start-up instead of a background thread.
  /// Records written with `own_writer_id` in their writer header are marked `own`.
  status_topic_follower(const kafka_settings& settings, const std::string& topic, std::chrono::milliseconds timeout,
                        std::string own_writer_id = {});
  ~status_topic_follower();

  void start(records_sink on_records, caught_up_sink on_caught_up);
  /// Stops and joins the thread. Idempotent.
  void stop();
  /// Asks the reader thread to lower its own priority and that of the consumer's librdkafka threads
  /// by `increment` nice steps (once; it does so before its next poll). Callable from any thread.
  void follow_below(int increment) { lower_by_.store(increment, std::memory_order_relaxed); }

  uint64_t records_at_start() const;

 private:
  void run();
  void lower_priority(int increment);

  std::unique_ptr<topic_consumer> consumer_;
  records_sink on_records_;
  caught_up_sink on_caught_up_;
  std::atomic<bool> running_{false};
  std::atomic<int> lower_by_{0};
  std::thread thread_;
};

}  // namespace status_store
