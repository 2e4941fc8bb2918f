#include "actors/kafka/mock_cluster.hpp"

#include "actors/kafka/librdkafka_client.hpp"

#include <algorithm>
#include <stdexcept>

namespace status_store {

mock_cluster::mock_cluster(int brokers) : brokers_(brokers) {
  // log_level 3: the owner never talks to Kafka.
  owner_ = new_librdkafka_client(RD_KAFKA_PRODUCER, {{"log_level", "3"}}, "mock cluster owner",
                                 "mock cluster's owner handle");
  cluster_ = rd_kafka_mock_cluster_new(owner_, brokers);
  if (!cluster_) {
    rd_kafka_destroy(owner_);
    throw std::runtime_error("cannot create the librdkafka mock cluster");
  }
}

mock_cluster::~mock_cluster() {
  rd_kafka_mock_cluster_destroy(cluster_);
  rd_kafka_destroy(owner_);
}

std::string mock_cluster::bootstrap_servers() const { return rd_kafka_mock_cluster_bootstraps(cluster_); }

void mock_cluster::create_topic(const std::string& topic, int partitions, int replication_factor) {
  const int rf = std::clamp(replication_factor, 1, brokers_);
  if (auto err = rd_kafka_mock_topic_create(cluster_, topic.c_str(), partitions, rf); err)
    throw std::runtime_error("mock cluster cannot create topic " + topic + ": " + rd_kafka_err2str(err));
}

void mock_cluster::set_broker_down(int32_t broker_id) { rd_kafka_mock_broker_set_down(cluster_, broker_id); }
void mock_cluster::set_broker_up(int32_t broker_id) { rd_kafka_mock_broker_set_up(cluster_, broker_id); }

void mock_cluster::push_produce_errors(const std::vector<rd_kafka_resp_err_t>& errors) {
  constexpr int16_t produce_api_key = 0;
  rd_kafka_mock_push_request_errors_array(cluster_, produce_api_key, errors.size(), errors.data());
}

}  // namespace status_store
