#include "actors/kafka_topic_reader.hpp"

#include "actors/librdkafka_logging.hpp"
#include "config/secret_masking.hpp"

#include <librdkafka/rdkafka.h>

#include <memory>
#include <stdexcept>
#include <vector>

namespace status_store {

namespace {

using clock_type = std::chrono::steady_clock;

struct consumer_deleter {
  void operator()(rd_kafka_t* rk) const {
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
  }
};
struct partition_list_deleter {
  void operator()(rd_kafka_topic_partition_list_t* l) const { rd_kafka_topic_partition_list_destroy(l); }
};
using consumer_ptr = std::unique_ptr<rd_kafka_t, consumer_deleter>;
using partition_list_ptr = std::unique_ptr<rd_kafka_topic_partition_list_t, partition_list_deleter>;

int remaining_ms(clock_type::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now()).count();
  return left > 0 ? static_cast<int>(left) : 0;
}

consumer_ptr make_consumer(const kafka_settings& settings) {
  char errstr[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  for (const auto& [key, value] : settings) {
    if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      throw std::runtime_error("librdkafka rejected consumer setting " + key + "=" + mask_if_secret(key, value) +
                               ": " + errstr);
    }
  }
  route_librdkafka_logs(conf);
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof errstr);
  if (!rk) {
    rd_kafka_conf_destroy(conf);
    throw std::runtime_error(std::string{"cannot create the status consumer: "} + errstr);
  }
  return consumer_ptr{rk};
}

int32_t partition_count(rd_kafka_t* rk, const std::string& topic, clock_type::time_point deadline) {
  rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk, topic.c_str(), nullptr);
  for (;;) {
    const rd_kafka_metadata_t* md = nullptr;
    auto err = rd_kafka_metadata(rk, 0, rkt, &md, std::max(remaining_ms(deadline), 1));
    int32_t count = -1;
    if (!err && md->topic_cnt == 1 && !md->topics[0].err) count = md->topics[0].partition_cnt;
    if (md) rd_kafka_metadata_destroy(md);
    if (count > 0) {
      rd_kafka_topic_destroy(rkt);
      return count;
    }
    if (remaining_ms(deadline) == 0) {
      rd_kafka_topic_destroy(rkt);
      throw std::runtime_error("no partition metadata for topic " + topic + " within the timeout");
    }
  }
}

}  // namespace

topic_contents read_topic_to_end(const kafka_settings& settings, const std::string& topic,
                                 std::chrono::milliseconds timeout) {
  const auto deadline = clock_type::now() + timeout;
  auto consumer = make_consumer(settings);
  rd_kafka_t* rk = consumer.get();
  topic_contents out;
  out.partitions = partition_count(rk, topic, deadline);

  // End offsets via offsets_for_times(END): in librdkafka 2.0.2 query_watermark_offsets ignores its
  // timeout while a leader is down; this call honours it.
  partition_list_ptr ends{rd_kafka_topic_partition_list_new(out.partitions)};
  for (int32_t p = 0; p < out.partitions; ++p)
    rd_kafka_topic_partition_list_add(ends.get(), topic.c_str(), p)->offset = RD_KAFKA_OFFSET_END;
  if (auto err = rd_kafka_offsets_for_times(rk, ends.get(), std::max(remaining_ms(deadline), 1)); err)
    throw std::runtime_error(std::string{"cannot read the end offsets of "} + topic + ": " + rd_kafka_err2str(err));

  std::vector<int64_t> end_offset(out.partitions, 0);
  partition_list_ptr assignment{rd_kafka_topic_partition_list_new(out.partitions)};
  size_t unfinished = 0;
  for (int i = 0; i < ends->cnt; ++i) {
    const auto& e = ends->elems[i];
    if (e.err)
      throw std::runtime_error("cannot read the end offset of " + topic + "[" + std::to_string(e.partition) +
                               "]: " + rd_kafka_err2str(e.err));
    end_offset[e.partition] = e.offset;
    if (e.offset > 0) {
      rd_kafka_topic_partition_list_add(assignment.get(), topic.c_str(), e.partition)->offset =
          RD_KAFKA_OFFSET_BEGINNING;
      ++unfinished;
    }
  }
  if (unfinished == 0) return out;
  if (auto err = rd_kafka_assign(rk, assignment.get()); err)
    throw std::runtime_error(std::string{"cannot assign the partitions of "} + topic + ": " + rd_kafka_err2str(err));

  std::vector<bool> done(out.partitions, false);
  while (unfinished > 0) {
    if (remaining_ms(deadline) == 0)
      throw std::runtime_error("timed out reading " + topic + " to its end (" + std::to_string(out.records) +
                               " records read)");
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, std::min(remaining_ms(deadline), 500));
    if (!m) continue;
    std::unique_ptr<rd_kafka_message_t, void (*)(rd_kafka_message_t*)> guard{m, rd_kafka_message_destroy};
    const int32_t p = m->partition;
    if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      // End reached; a transaction marker can make the last offset invisible, so EOF also ends it.
      if (p >= 0 && p < out.partitions && !done[p] && m->offset >= end_offset[p]) {
        done[p] = true;
        --unfinished;
      }
      continue;
    }
    if (m->err) {
      if (m->err == RD_KAFKA_RESP_ERR__TRANSPORT || m->err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN) continue;
      throw std::runtime_error("error reading " + topic + ": " + rd_kafka_message_errstr(m));
    }
    ++out.records;
    if (m->key) {
      topic_record rec;
      if (m->payload) rec.value.emplace(static_cast<const char*>(m->payload), m->len);
      rec.partition = p;
      rec.offset = m->offset;
      out.latest[std::string{static_cast<const char*>(m->key), m->key_len}] = std::move(rec);
    }
    if (!done[p] && m->offset + 1 >= end_offset[p]) {
      done[p] = true;
      --unfinished;
    }
  }
  return out;
}

}  // namespace status_store
