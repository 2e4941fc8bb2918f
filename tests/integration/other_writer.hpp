#pragma once
// Another writer of the status topic, as a second worker (or a Java one) would be: a plain
// librdkafka producer with Connect's murmur2 partitioner, records optionally stamped with the
// create time given (the history tests need known timestamps).
#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>

#include <cstdint>
#include <optional>
#include <string>

namespace status_store::integration {

class other_writer {
 public:
  explicit other_writer(const std::string& bootstrap) {
    char errstr[256];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), errstr, sizeof errstr);
    rd_kafka_conf_set(conf, "partitioner", "murmur2_random", errstr, sizeof errstr);
    rd_kafka_conf_set(conf, "linger.ms", "5", errstr, sizeof errstr);
    rk_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  }
  ~other_writer() { rd_kafka_destroy(rk_); }
  other_writer(const other_writer&) = delete;
  other_writer& operator=(const other_writer&) = delete;

  /// Appends `value` (nullopt: a tombstone) under `key`; `timestamp_ms` 0 lets librdkafka stamp it.
  /// Waits out a full local queue rather than failing the test.
  void send(const std::string& topic, const std::string& key, const std::optional<std::string>& value,
            int64_t timestamp_ms = 0) {
    void* payload = value ? const_cast<char*>(value->data()) : nullptr;
    const size_t length = value ? value->size() : 0;
    for (;;) {
      const auto err = rd_kafka_producev(rk_, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_KEY(key.data(), key.size()),
                                         RD_KAFKA_V_VALUE(payload, length), RD_KAFKA_V_TIMESTAMP(timestamp_ms),
                                         RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
      if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
        ASSERT_EQ(err, RD_KAFKA_RESP_ERR_NO_ERROR);
        return;
      }
      rd_kafka_poll(rk_, 10);
    }
  }
  void flush() { ASSERT_EQ(rd_kafka_flush(rk_, 60000), RD_KAFKA_RESP_ERR_NO_ERROR); }

 private:
  rd_kafka_t* rk_;
};

}  // namespace status_store::integration
