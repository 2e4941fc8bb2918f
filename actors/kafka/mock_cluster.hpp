#pragma once
// librdkafka's in-process mock cluster: the embedded default (bootstrap.servers=mock) that lets the
// main command run on a machine with no Kafka, and the fault injector of the integration tests.
// It speaks the Kafka protocol on 127.0.0.1 ports; it has no replication, compaction or CreateTopics.
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <cstdint>
#include <string>
#include <vector>

namespace status_store {

class mock_cluster {
 public:
  explicit mock_cluster(int brokers = 3);
  ~mock_cluster();
  mock_cluster(const mock_cluster&) = delete;
  mock_cluster& operator=(const mock_cluster&) = delete;

  /// "127.0.0.1:port,..." for bootstrap.servers.
  std::string bootstrap_servers() const;
  /// Replication is capped at the broker count (the mock refuses more).
  void create_topic(const std::string& topic, int partitions, int replication_factor);
  /// -1 = every broker. Connections are refused while down; no leader change happens. With
  /// librdkafka 2.0.2 and 2.8.0 a down broker stays in the mock's metadata; from 2.10 on the mock
  /// drops it from metadata replies, so a partial outage also changes what clients see as brokers.
  void set_broker_down(int32_t broker_id = -1);
  void set_broker_up(int32_t broker_id = -1);
  /// The next `errors.size()` Produce requests (to any broker) fail with these errors, in order.
  void push_produce_errors(const std::vector<rd_kafka_resp_err_t>& errors);

  rd_kafka_mock_cluster_t* handle() const { return cluster_; }
  int brokers() const { return brokers_; }

 private:
  rd_kafka_t* owner_ = nullptr;  // the mock runs on a thread of this (otherwise unused) handle
  rd_kafka_mock_cluster_t* cluster_ = nullptr;
  int brokers_;
};

}  // namespace status_store
