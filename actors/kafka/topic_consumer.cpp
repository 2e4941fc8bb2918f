#include "actors/kafka/topic_consumer.hpp"

#include "actors/kafka/delivery_error_table.hpp"
#include "actors/kafka/librdkafka_client.hpp"
#include "config/logging.hpp"
#include "messages/record_writer_header.hpp"

#include <algorithm>
#include <stdexcept>

namespace status_store {

namespace {

using clock_type = std::chrono::steady_clock;

struct partition_list {
  rd_kafka_topic_partition_list_t* list;
  explicit partition_list(int size) : list(rd_kafka_topic_partition_list_new(size)) {}
  ~partition_list() { rd_kafka_topic_partition_list_destroy(list); }
};

rd_kafka_t* make_consumer(const kafka_settings& settings, credential_failure_watch& credentials,
                          client_threads& threads) {
  return new_librdkafka_client(RD_KAFKA_CONSUMER, settings, "consumer", "status consumer", [&](rd_kafka_conf_t* conf) {
    credentials.install(conf);
    threads.install(conf);
  });
}

/// Whether `m` carries the writer header with exactly `writer_id`.
bool written_by(const rd_kafka_message_t* m, const std::string& writer_id) {
  rd_kafka_headers_t* headers = nullptr;
  if (writer_id.empty() || rd_kafka_message_headers(m, &headers) != RD_KAFKA_RESP_ERR_NO_ERROR) return false;
  const void* value = nullptr;
  size_t size = 0;
  if (rd_kafka_header_get_last(headers, writer_header_name.data(), &value, &size) != RD_KAFKA_RESP_ERR_NO_ERROR)
    return false;
  return size == writer_id.size() && std::equal(writer_id.begin(), writer_id.end(), static_cast<const char*>(value));
}

int32_t partition_count(rd_kafka_t* rk, const std::string& topic, clock_type::time_point deadline,
                        const credential_failure_watch& credentials) {
  rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk, topic.c_str(), nullptr);
  std::string last_error = "no answer";
  for (;;) {
    const rd_kafka_metadata_t* md = nullptr;
    auto err = rd_kafka_metadata(rk, 0, rkt, &md, std::max(std::min(remaining_ms(deadline), 2000), 1));
    int32_t count = -1;
    if (err)
      last_error = rd_kafka_err2str(err);
    else if (md->topic_cnt == 1 && md->topics[0].err)
      last_error = rd_kafka_err2str(md->topics[0].err);
    else if (md->topic_cnt == 1)
      count = md->topics[0].partition_cnt;
    if (md) rd_kafka_metadata_destroy(md);
    if (count <= 0) {
      rd_kafka_poll(rk, 0);  // serves the error callback
      if (const auto failure = credentials.failure()) {
        rd_kafka_topic_destroy(rkt);
        throw std::runtime_error("cannot read status topic '" + topic + "': authentication with the broker failed (" +
                                 rd_kafka_err2name(failure->error) + "): " + failure->reason);
      }
    }
    if (count > 0 || remaining_ms(deadline) == 0) {
      rd_kafka_topic_destroy(rkt);
      if (count > 0) return count;
      throw std::runtime_error("no partition metadata for topic '" + topic + "' within the timeout: " + last_error);
    }
  }
}

}  // namespace

topic_consumer::topic_consumer(const kafka_settings& settings, const std::string& topic,
                               std::chrono::milliseconds timeout, std::string own_writer_id)
    : rk_(make_consumer(settings, *credentials_, *threads_)), topic_(topic), own_writer_id_(std::move(own_writer_id)) {
  const auto deadline = clock_type::now() + timeout;
  try {
    const int32_t n = partition_count(rk_, topic, deadline, *credentials_);
    // Start and end offsets via offsets_for_times: before librdkafka 2.12.0 (2.0.2 and the default
    // 2.8.0 included) query_watermark_offsets ignores its timeout while a leader is down; this call
    // honours it. Before 2.10.0 it does not refresh a moved leader either: the NOT_LEADER it then
    // returns is transient (below), and start-up retries it within its timeout.
    partition_list starts{n}, ends{n};
    for (int32_t p = 0; p < n; ++p) {
      rd_kafka_topic_partition_list_add(starts.list, topic.c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
      rd_kafka_topic_partition_list_add(ends.list, topic.c_str(), p)->offset = RD_KAFKA_OFFSET_END;
    }
    // Errors the delivery error table calls retriable (a leader not elected yet, metadata not
    // propagated) are transient here too.
    auto fail = [&](rd_kafka_resp_err_t err, const std::string& what) {
      const std::string message = "cannot read the offsets of '" + topic + "'" + what + ": " + rd_kafka_err2str(err);
      if (classify_delivery_error(err) == delivery_outcome::retriable) throw transient_kafka_error(message);
      throw std::runtime_error(message);
    };
    for (auto* list : {starts.list, ends.list}) {
      if (auto err = rd_kafka_offsets_for_times(rk_, list, std::max(remaining_ms(deadline), 1)); err) fail(err, "");
      for (int i = 0; i < list->cnt; ++i)
        if (list->elems[i].err) fail(list->elems[i].err, " partition " + std::to_string(list->elems[i].partition));
    }
    end_offsets_.assign(n, 0);
    done_.assign(n, true);
    partition_list assignment{n};
    for (int i = 0; i < n; ++i) {
      const int32_t p = ends.list->elems[i].partition;
      end_offsets_[p] = ends.list->elems[i].offset;
      records_at_start_ += static_cast<uint64_t>(std::max<int64_t>(0, end_offsets_[p] - starts.list->elems[i].offset));
      rd_kafka_topic_partition_list_add(assignment.list, topic.c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
      if (end_offsets_[p] > starts.list->elems[i].offset) {
        done_[p] = false;
        ++unfinished_;
      }
    }
    if (auto err = rd_kafka_assign(rk_, assignment.list); err)
      throw std::runtime_error("cannot assign the partitions of '" + topic + "': " + rd_kafka_err2str(err));
  } catch (...) {
    rd_kafka_destroy(rk_);
    throw;
  }
}

topic_consumer::~topic_consumer() {
  rd_kafka_consumer_close(rk_);
  rd_kafka_destroy(rk_);
}

void topic_consumer::reached(int32_t p) {
  if (p >= 0 && p < partitions() && !done_[p]) {
    done_[p] = true;
    --unfinished_;
  }
}

void topic_consumer::poll(std::vector<consumed_record>& out, size_t max, std::chrono::milliseconds wait) {
  int timeout_ms = static_cast<int>(wait.count());
  while (out.size() < max) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk_, timeout_ms);
    if (!m) return;
    timeout_ms = 0;  // after the first record, take only what is already there
    const int32_t p = m->partition;
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      // A transaction marker can hide the last offset, so reaching EOF at or past the captured end
      // also counts (Connect reads until position >= end offset).
      if (p >= 0 && p < partitions() && m->offset >= end_offsets_[p]) reached(p);
    } else if (m->err) {
      static const auto log = component_logger("status-reader");
      log->warn("error reading '{}': {}", topic_, rd_kafka_message_errstr(m));
    } else {
      consumed_record r;
      if (m->key) r.key.assign(static_cast<const char*>(m->key), m->key_len);
      r.tombstone = m->payload == nullptr;
      if (m->payload) r.value.assign(static_cast<const char*>(m->payload), m->len);
      r.partition = p;
      r.offset = m->offset;
      r.own = written_by(m, own_writer_id_);
      r.timestamp_ms = rd_kafka_message_timestamp(m, nullptr);  // -1 when the message has none
      out.push_back(std::move(r));
      if (p >= 0 && p < partitions() && m->offset + 1 >= end_offsets_[p]) reached(p);
    }
    rd_kafka_message_destroy(m);
  }
}

}  // namespace status_store
