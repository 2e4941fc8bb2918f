#pragma once
// What the system tests need from the real cluster that scripts/kafka-local.sh started: its bootstrap
// servers (STATUS_STORE_BOOTSTRAP), its size (STATUS_STORE_KAFKA_NODES), the script itself
// (STATUS_STORE_KAFKA_LOCAL) to stop, kill and restart nodes, and a few librdkafka admin calls to
// look at topics from outside the store. `scripts/kafka-local.sh run [1|3] -- ctest ...` sets all
// three variables; without them every test fails (never skips), so a run of the label that did not
// start a broker cannot pass.
#include "app/store/store.hpp"
#include "config/properties.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace status_store::system_test {

/// Base fixture: fails the test in SetUp unless the cluster the test needs is there.
class cluster_test : public ::testing::Test {
 protected:
  explicit cluster_test(int nodes) : nodes_(nodes) {}
  void SetUp() override;
  void TearDown() override;

  /// host:port,... of the running cluster.
  const std::string& bootstrap() const { return bootstrap_; }
  /// Runs `scripts/kafka-local.sh ARGS` (stop 1, start all, kill 2, ...); true if it exited 0.
  bool kafka_local(const std::string& args);
  /// A topic name no earlier test run on this cluster has used.
  std::string unique_topic(const std::string& stem) const;
  /// A worker configuration for this cluster: bootstrap servers and topic set, plus `extra`.
  worker_config config(const std::string& topic, const properties& extra) const;

 private:
  int nodes_;
  std::string bootstrap_;
  std::string script_;
};

/// The settings of a store that rides out a partition leader's failover on the three-node cluster:
/// 3 partitions, RF 3, min.insync.replicas=2; one attempt (5 s) nearly covers the broker's session
/// timeout (6 s, set by kafka-local.sh) after which the controller moves leadership, and 15 retries
/// backing off 200..2000 ms leave a wide margin.
inline properties failover_settings() {
  return {{"status.storage.partitions", "3"},
          {"status.storage.replication.factor", "3"},
          {"status.storage.min.insync.replicas", "2"},
          {"producer.message.timeout.ms", "5000"},
          {"status.storage.retry.max.retries", "15"},
          {"status.storage.retry.initial.backoff.ms", "200"},
          {"status.storage.retry.max.backoff.ms", "2000"}};
}

struct single_node_test : cluster_test {
  single_node_test() : cluster_test(1) {}
};
struct three_node_test : cluster_test {
  three_node_test() : cluster_test(3) {}
};

/// Starts a store on the cluster (a store is neither copyable nor movable; tests that stop it early
/// and destroy it hold it by pointer).
std::unique_ptr<store> open_store(const worker_config& config, store_options options = {});

// ---- the cluster seen from outside the store (librdkafka admin and metadata) ----------------------
struct partition_info {
  int32_t id = -1;
  int32_t leader = -1;  // node id (= the script's node number)
  std::vector<int32_t> replicas;
  std::vector<int32_t> isrs;
};

/// Partitions of `topic` (sorted by id); throws std::runtime_error if metadata is unavailable.
std::vector<partition_info> describe_partitions(const std::string& bootstrap, const std::string& topic);
/// The topic's effective configuration (DescribeConfigs), every entry by name.
std::map<std::string, std::string> describe_topic_config(const std::string& bootstrap, const std::string& topic);
/// CreateTopics with explicit configs; throws std::runtime_error with the broker's error.
void create_topic(const std::string& bootstrap, const std::string& topic, int partitions, int replication_factor,
                  const std::map<std::string, std::string>& configs);
/// Sum over partitions of (high watermark - low watermark): the records written, when nothing was
/// deleted or compacted yet.
int64_t count_records(const std::string& bootstrap, const std::string& topic);

/// Polls `condition` every 50 ms until it holds or `timeout` elapses; returns the last result.
template <class Condition>
bool eventually(Condition condition, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds{50});
  }
}

/// Every partition of `topic` has all its replicas in sync again within `timeout` (a restarted or
/// resumed node rejoined).
inline bool fully_replicated(const std::string& bootstrap, const std::string& topic,
                             std::chrono::milliseconds timeout) {
  return eventually(
      [&] {
        try {
          for (const auto& p : describe_partitions(bootstrap, topic))
            if (p.isrs.size() != p.replicas.size()) return false;
          return true;
        } catch (const std::exception&) {
          return false;
        }
      },
      timeout);
}

}  // namespace status_store::system_test
