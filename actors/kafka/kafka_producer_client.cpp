#include "actors/kafka/kafka_producer_client.hpp"

#include "actors/kafka/credential_failure_watch.hpp"
#include "actors/kafka/delivery_error_table.hpp"
#include "actors/kafka/librdkafka_client.hpp"
#include "messages/record_writer_header.hpp"

#include <stdexcept>

namespace status_store {

namespace {
int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// A report of a record the client never took (refused at once, or kept back by the outage hold).
delivery_result refused_report(const outgoing_record& record, rd_kafka_resp_err_t err) {
  delivery_result r{record.key, record.send_id, err, -1, rd_kafka_err2str(err), judge_delivery_error(err)};
  r.reported_ns = steady_now_ns();
  r.queue_us = 0;
  return r;
}

// While no broker is reachable, a metadata request probes for one this often, each waiting this long.
constexpr std::chrono::milliseconds probe_interval{250};
constexpr std::chrono::milliseconds probe_timeout{250};
}  // namespace

kafka_producer_client::kafka_producer_client(const kafka_settings& settings, const std::string& topic,
                                             std::string writer_id)
    : writer_id_(std::move(writer_id)), credentials_(std::make_unique<credential_failure_watch>("status producer")) {
  rk_ =
      new_librdkafka_client(RD_KAFKA_PRODUCER, settings, "producer", "status producer", [this](rd_kafka_conf_t* conf) {
        rd_kafka_conf_set_dr_msg_cb(conf, &kafka_producer_client::on_delivery);
        rd_kafka_conf_set_error_cb(conf, &kafka_producer_client::on_error);
        rd_kafka_conf_set_opaque(conf, this);
      });
  topic_ = rd_kafka_topic_new(rk_, topic.c_str(), nullptr);  // once: avoids a topic lookup per record
}

kafka_producer_client::~kafka_producer_client() { shutdown(); }

std::optional<delivery_result> kafka_producer_client::produce(const outgoing_record& record) {
  // The send_id travels as the message opaque and comes back in the delivery report.
  void* opaque = reinterpret_cast<void*>(static_cast<uintptr_t>(record.send_id));
  const rd_kafka_resp_err_t err = rd_kafka_producev(
      rk_, RD_KAFKA_V_RKT(topic_), RD_KAFKA_V_PARTITION(RD_KAFKA_PARTITION_UA),
      RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
      RD_KAFKA_V_VALUE(record.tombstone ? nullptr : const_cast<char*>(record.value.data()),
                       record.tombstone ? 0 : record.value.size()),
      RD_KAFKA_V_KEY(record.key.data(), record.key.size()),
      // The name is a NUL-terminated literal, as librdkafka needs.
      RD_KAFKA_V_HEADER(writer_header_name.data(), writer_id_.data(), static_cast<ssize_t>(writer_id_.size())),
      RD_KAFKA_V_OPAQUE(opaque), RD_KAFKA_V_END);
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return std::nullopt;
  return refused_report(record, err);
}

delivery_result kafka_producer_client::not_sent(const outgoing_record& record) const {
  return refused_report(record, RD_KAFKA_RESP_ERR__PURGE_QUEUE);
}

void kafka_producer_client::on_delivery(rd_kafka_t*, const rd_kafka_message_t* msg, void* opaque) {
  auto* self = static_cast<kafka_producer_client*>(opaque);
  delivery_result r;
  r.key.assign(static_cast<const char*>(msg->key), msg->key_len);
  r.send_id = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(msg->_private));
  r.error = msg->err;
  r.partition = msg->partition;
  r.reported_ns = steady_now_ns();
  r.queue_us = rd_kafka_message_latency(msg);  // since the produce call
  if (msg->err) r.error_text = rd_kafka_err2str(msg->err);
  if (!msg->err) {
    self->credentials_->clear();
  } else if ((msg->err == RD_KAFKA_RESP_ERR__MSG_TIMED_OUT ||
              (msg->err == RD_KAFKA_RESP_ERR__PURGE_QUEUE && self->polling_.load(std::memory_order_relaxed))) &&
             self->credentials_->failing()) {
    // Not sent because the broker refuses our credentials: report that, not a timeout.
    if (const auto failure = self->credentials_->failure()) {
      r.error = failure->error;
      r.error_text = failure->reason;
    }
  }
  r.verdict = judge_delivery_error(static_cast<rd_kafka_resp_err_t>(r.error));
  self->batch_.push_back(std::move(r));
}

void kafka_producer_client::on_error(rd_kafka_t* rk, int error, const char* reason, void* opaque) {
  auto* self = static_cast<kafka_producer_client*>(opaque);
  const auto code = static_cast<rd_kafka_resp_err_t>(error);
  self->credentials_->on_error(code, reason);
  // Records waiting for a connection would wait out message.timeout.ms for nothing; their purge
  // reports arrive in this same poll loop.
  if (credential_failure_watch::is_credential_error(code)) {
    rd_kafka_purge(rk, RD_KAFKA_PURGE_F_QUEUE);
    // Brokers that refuse our credentials are reachable: holding would turn each update's one
    // authentication failure into timeouts and retries. End a hold that began before this error.
    if (self->brokers_down_.exchange(false) && self->reachability_) self->reachability_(true);
  } else if (code == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN && !self->credentials_->failing() &&
             !self->brokers_down_.exchange(true)) {
    // Outage hold: what waits in librdkafka's queue comes back as _PURGE_QUEUE (not sent) and is held
    // by the coalescer, which writes each key's latest value once a broker is reachable again.
    self->next_probe_ = std::chrono::steady_clock::now() + probe_interval;
    rd_kafka_purge(rk, RD_KAFKA_PURGE_F_QUEUE);
    if (self->reachability_) self->reachability_(false);
  }
}

std::optional<std::string> kafka_producer_client::credential_failure() const {
  if (!credentials_->failing()) return std::nullopt;
  const auto failure = credentials_->failure();
  return failure ? failure->reason : std::string{"credentials refused"};
}

std::string kafka_producer_client::cluster_id(std::chrono::milliseconds timeout) const {
  char* id = rd_kafka_clusterid(rk_, static_cast<int>(timeout.count()));
  if (id == nullptr) return {};
  std::string out{id};
  rd_kafka_mem_free(rk_, id);
  return out;
}

void kafka_producer_client::probe_brokers() {
  const auto now = std::chrono::steady_clock::now();
  if (now < next_probe_) return;
  // A metadata request for no topic: it succeeds as soon as any broker answers.
  const rd_kafka_metadata_t* metadata = nullptr;
  if (rd_kafka_metadata(rk_, 0, nullptr, &metadata, static_cast<int>(probe_timeout.count())) ==
      RD_KAFKA_RESP_ERR_NO_ERROR) {
    rd_kafka_metadata_destroy(metadata);
    brokers_down_.store(false, std::memory_order_release);
    if (reachability_) reachability_(true);
    return;
  }
  next_probe_ = std::chrono::steady_clock::now() + probe_interval;
}

void kafka_producer_client::start_polling(delivery_sink sink, reachability_sink reachability) {
  if (polling_.exchange(true)) return;
  sink_ = std::move(sink);
  reachability_ = std::move(reachability);
  poller_ = std::thread{[this] { poll_loop(); }};
}

void kafka_producer_client::poll_loop() {
  while (polling_.load(std::memory_order_relaxed)) {
    // Blocks until reports arrive or 100 ms pass (so a stop is noticed); serves all queued reports,
    // which under load arrive about a thousand at a time: one actor message per batch.
    rd_kafka_poll(rk_, 100);
    if (!batch_.empty()) {
      sink_(std::move(batch_));
      batch_.clear();
    }
    if (brokers_down_.load(std::memory_order_relaxed)) probe_brokers();
  }
}

void kafka_producer_client::shutdown() {
  if (polling_.exchange(false) && poller_.joinable()) poller_.join();
  if (!rk_) return;
  // rd_kafka_destroy silently drops queued messages; purge so every message gets a report, then
  // serve the purge reports here (the coalescer has already counted these updates).
  rd_kafka_purge(rk_, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
  rd_kafka_poll(rk_, 0);
  batch_.clear();
  rd_kafka_topic_destroy(topic_);
  topic_ = nullptr;
  rd_kafka_destroy(rk_);
  rk_ = nullptr;
}

}  // namespace status_store
