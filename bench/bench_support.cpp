#include "bench_support.hpp"

#include <malloc.h>

#include <stdexcept>
#include <thread>
#include <vector>

namespace status_store::bench {

long heap_in_use() { return static_cast<long>(mallinfo2().uordblks); }

worker_config bench_config(const std::string& bootstrap, const std::string& topic) {
  return parse_worker_config({{"bootstrap.servers", bootstrap},
                              {"group.id", "bench"},
                              {"status.storage.topic", topic},
                              {"status.storage.partitions", "6"},
                              {"status.storage.replication.factor", "1"}});
}

connector_status status_for(uint64_t i, uint64_t keys) {
  return connector_status{"bench-connector-" + std::to_string(i % keys),
                          status_value{i % 5 ? status_state::running : status_state::paused, std::nullopt,
                                       "bench-worker-1:8083", static_cast<int32_t>(i / keys)}};
}

namespace {
int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(clock_type::now().time_since_epoch()).count();
}
}  // namespace

raw_producer::raw_producer(const worker_config& config, const std::string& bootstrap, const kafka_settings& extra) {
  kafka_settings settings = producer_settings(config);
  settings.emplace_back("bootstrap.servers", bootstrap);
  for (const auto& setting : extra) settings.push_back(setting);
  char errstr[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  for (auto& [k, v] : settings) {
    if (rd_kafka_conf_set(conf, k.c_str(), v.c_str(), errstr, sizeof errstr) != RD_KAFKA_CONF_OK)
      throw std::runtime_error(k + ": " + errstr);
  }
  rd_kafka_conf_set_dr_msg_cb(conf, &raw_producer::on_report);
  rd_kafka_conf_set_opaque(conf, this);
  rk_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  if (rk_ == nullptr) throw std::runtime_error(errstr);
  topic_ = rd_kafka_topic_new(rk_, config.status_topic.c_str(), nullptr);
}

raw_producer::~raw_producer() {
  rd_kafka_topic_destroy(topic_);
  rd_kafka_destroy(rk_);
}

void raw_producer::on_report(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  auto* self = static_cast<raw_producer*>(opaque);
  if (self->observer_) {
    self->observer_(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(message->_private)),
                    message->err == RD_KAFKA_RESP_ERR_NO_ERROR);
    return;
  }
  if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    ++self->failed_;
    return;
  }
  ++self->acknowledged_;
  const auto sent = reinterpret_cast<intptr_t>(message->_private);
  self->latency_.record(static_cast<uint64_t>(std::max<int64_t>(0, now_ns() - sent)) / 1000);
}

void raw_producer::send(const std::string& key, const std::string* value) {
  // The send time rides in the message's opaque: no allocation, no lookup on the report.
  for (;;) {
    void* sent = reinterpret_cast<void*>(static_cast<intptr_t>(now_ns()));
    if (rd_kafka_produce(topic_, RD_KAFKA_PARTITION_UA, RD_KAFKA_MSG_F_COPY,
                         value ? const_cast<char*>(value->data()) : nullptr, value ? value->size() : 0, key.data(),
                         key.size(), sent) == 0)
      return;
    if (rd_kafka_last_error() != RD_KAFKA_RESP_ERR__QUEUE_FULL)
      throw std::runtime_error(std::string{"produce: "} + rd_kafka_err2str(rd_kafka_last_error()));
    rd_kafka_poll(rk_, 1);  // queue full: serve reports, then go on
  }
}

void raw_producer::send_tagged(std::string_view key, std::string_view value, uint64_t tag) {
  void* opaque = reinterpret_cast<void*>(static_cast<uintptr_t>(tag));
  while (rd_kafka_produce(topic_, RD_KAFKA_PARTITION_UA, RD_KAFKA_MSG_F_COPY, const_cast<char*>(value.data()),
                          value.size(), key.data(), key.size(), opaque) != 0) {
    if (rd_kafka_last_error() != RD_KAFKA_RESP_ERR__QUEUE_FULL)
      throw std::runtime_error(std::string{"produce: "} + rd_kafka_err2str(rd_kafka_last_error()));
    std::this_thread::sleep_for(std::chrono::microseconds{100});  // the polling thread makes room
  }
}

bool raw_producer::flush(std::chrono::milliseconds timeout) {
  return rd_kafka_flush(rk_, static_cast<int>(timeout.count())) == RD_KAFKA_RESP_ERR_NO_ERROR;
}

double raw_produce(const worker_config& config, const std::string& bootstrap, uint64_t count, uint64_t keys,
                   bool tombstones) {
  std::vector<status_record> records;
  records.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    auto r = encode_connector_record(status_for(i, keys));
    if (tombstones && i % 97 == 96) r.value.reset();
    records.push_back(std::move(r));
  }
  raw_producer producer{config, bootstrap};
  const auto start = clock_type::now();
  for (uint64_t i = 0; i < count; ++i) {
    const auto& r = records[i];
    producer.send(r.key, r.value ? &*r.value : nullptr);
    if ((i & 1023) == 0) producer.poll();
  }
  if (!producer.flush(std::chrono::minutes{10})) throw std::runtime_error("raw producer: flush timed out");
  const double elapsed = seconds_since(start);
  if (producer.acknowledged() != count) throw std::runtime_error("raw producer: not every record was acknowledged");
  return elapsed;
}

nlohmann::json last_json_line(std::string output) {
  while (!output.empty() && output.back() == '\n') output.pop_back();
  const auto line_start = output.rfind('\n');
  return nlohmann::json::parse(line_start == std::string::npos ? output : output.substr(line_start + 1));
}

void pace(clock_type::time_point start, uint64_t i, double rate) {
  if (rate <= 0 || (i & 63) != 0) return;
  const auto due = start + std::chrono::duration_cast<clock_type::duration>(
                               std::chrono::duration<double>(static_cast<double>(i) / rate));
  std::this_thread::sleep_until(due);
}

}  // namespace status_store::bench
