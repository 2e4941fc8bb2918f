#include "actors/kafka/status_topic_follower.hpp"

#include "actors/kafka/topic_consumer.hpp"
#include "actors/threads/thread_name.hpp"
#include "actors/threads/thread_priority.hpp"
#include "config/logging.hpp"

namespace status_store {

namespace {
// Large enough to amortize one actor message over many records during a replay, small enough that
// a live update reaches the view without waiting for others.
constexpr size_t max_batch = 5000;
}  // namespace

status_topic_follower::status_topic_follower(const kafka_settings& settings, const std::string& topic,
                                             std::chrono::milliseconds timeout, std::string own_writer_id)
    : consumer_(std::make_unique<topic_consumer>(settings, topic, timeout, std::move(own_writer_id))) {}

status_topic_follower::~status_topic_follower() { stop(); }

uint64_t status_topic_follower::records_at_start() const { return consumer_->records_at_start(); }

void status_topic_follower::start(records_sink on_records, caught_up_sink on_caught_up) {
  if (running_.exchange(true)) return;
  on_records_ = std::move(on_records);
  on_caught_up_ = std::move(on_caught_up);
  thread_ = std::thread{[this] { run(); }};
}

void status_topic_follower::stop() {
  if (running_.exchange(false) && thread_.joinable()) thread_.join();
}

void status_topic_follower::run() {
  name_this_thread("status-reader");
  bool announced = false;
  std::vector<consumed_record> batch;
  while (running_.load(std::memory_order_relaxed)) {
    if (const int n = lower_by_.exchange(0, std::memory_order_relaxed); n > 0) lower_priority(n);
    consumer_->poll(batch, max_batch, std::chrono::milliseconds{100});
    if (!batch.empty()) {
      on_records_(std::move(batch));
      batch = {};
    }
    // After the records: the view applies them before it hears that the replay is complete.
    if (!announced && consumer_->caught_up()) {
      announced = true;
      on_caught_up_();
    }
  }
  on_records_ = nullptr;  // drop the sinks' actor handles with the thread
  on_caught_up_ = nullptr;
}

/// On the reader thread: this thread's priority is its own to change, and the consumer is used here.
void status_topic_follower::lower_priority(int increment) {
  static const auto log = component_logger("status-reader");
  auto refused = lower_this_thread_priority(increment);
  if (auto by_client = consumer_->threads().lower_priority(increment); refused.empty()) refused = std::move(by_client);
  if (!refused.empty())
    log->warn(
        "could not lower the priority of the status reader's threads ({}): they follow the topic at the "
        "write path's priority",
        refused);
  else
    log->debug("following the topic at nice {}, with {} librdkafka thread(s) of the consumer", this_thread_nice(),
               consumer_->threads().ids().size());
}

}  // namespace status_store
