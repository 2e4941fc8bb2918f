#include "kafka_cluster.hpp"

#include "config/worker_config.hpp"

#include <librdkafka/rdkafka.h>

#include <unistd.h>
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace status_store::system_test {

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

constexpr const char* how_to_run =
    "the system tests need a real Kafka cluster started by scripts/kafka-local.sh; run them with\n"
    "  scripts/kafka-local.sh run 1 -- ctest --test-dir build -L '^system$' --output-on-failure\n"
    "  scripts/kafka-local.sh run 3 -- ctest --test-dir build -L '^system-cluster$' --output-on-failure";

struct rk_deleter {
  void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
};
using rk_ptr = std::unique_ptr<rd_kafka_t, rk_deleter>;

rk_ptr admin_client(const std::string& bootstrap) {
  char errstr[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  if (rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), errstr, sizeof errstr) != RD_KAFKA_CONF_OK ||
      rd_kafka_conf_set(conf, "client.id", "system-test-admin", errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
    rd_kafka_conf_destroy(conf);
    throw std::runtime_error(errstr);
  }
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  if (!rk) {
    rd_kafka_conf_destroy(conf);
    throw std::runtime_error(errstr);
  }
  return rk_ptr{rk};
}

/// Waits for the result event of one admin request on its own queue.
rd_kafka_event_t* await_event(rd_kafka_queue_t* queue, rd_kafka_event_type_t type, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds{timeout_ms};
  while (std::chrono::steady_clock::now() < deadline) {
    rd_kafka_event_t* ev = rd_kafka_queue_poll(queue, 200);
    if (!ev) continue;
    if (rd_kafka_event_type(ev) == type) return ev;
    rd_kafka_event_destroy(ev);
  }
  return nullptr;
}

}  // namespace

void cluster_test::SetUp() {
  bootstrap_ = env("STATUS_STORE_BOOTSTRAP");
  script_ = env("STATUS_STORE_KAFKA_LOCAL");
  const std::string nodes = env("STATUS_STORE_KAFKA_NODES");
  ASSERT_FALSE(bootstrap_.empty()) << "STATUS_STORE_BOOTSTRAP is not set: " << how_to_run;
  ASSERT_FALSE(script_.empty()) << "STATUS_STORE_KAFKA_LOCAL is not set: " << how_to_run;
  ASSERT_EQ(nodes, std::to_string(nodes_))
      << "this test needs a cluster of " << nodes_ << " node(s), STATUS_STORE_KAFKA_NODES says '" << nodes
      << "': " << how_to_run;
  // Every node up: a previous test that failed half-way through an outage must not leak it here.
  ASSERT_TRUE(kafka_local("start all")) << "could not bring every node of the cluster up";
}

void cluster_test::TearDown() {
  // Leave the cluster as the next test expects it, whatever this one did to it.
  if (!script_.empty()) {
    EXPECT_TRUE(kafka_local("start all")) << "could not bring the cluster back up";
  }
}

bool cluster_test::kafka_local(const std::string& args) {
  const std::string command = "bash '" + script_ + "' " + args;
  const auto started = std::chrono::steady_clock::now();
  const int rc = std::system(command.c_str());
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  std::printf("[kafka-local] %s: exit %d after %lld ms\n", args.c_str(), rc, static_cast<long long>(ms));
  std::fflush(stdout);
  return rc == 0;
}

std::string cluster_test::unique_topic(const std::string& stem) const {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return "system-" + stem + "-" + std::to_string(::getpid()) + "-" +
         std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
}

worker_config cluster_test::config(const std::string& topic, const properties& extra) const {
  properties props{
      {"bootstrap.servers", bootstrap_},
      {"group.id", "system-test"},
      {"status.storage.topic", topic},
      {"status.storage.replication.factor", std::to_string(nodes_)},
  };
  for (const auto& [key, value] : extra) props[key] = value;
  return parse_worker_config(props);
}

std::unique_ptr<store> open_store(const worker_config& config, store_options options) {
  return std::make_unique<store>(config, options);
}

std::vector<partition_info> describe_partitions(const std::string& bootstrap, const std::string& topic) {
  auto rk = admin_client(bootstrap);
  rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk.get(), topic.c_str(), nullptr);
  const rd_kafka_metadata_t* md = nullptr;
  auto err = rd_kafka_metadata(rk.get(), 0, rkt, &md, 10000);
  rd_kafka_topic_destroy(rkt);
  if (err) throw std::runtime_error("metadata of '" + topic + "': " + rd_kafka_err2str(err));
  std::unique_ptr<const rd_kafka_metadata_t, void (*)(const rd_kafka_metadata_t*)> guard{md, rd_kafka_metadata_destroy};
  if (md->topic_cnt != 1 || md->topics[0].err)
    throw std::runtime_error("metadata of '" + topic +
                             "': " + (md->topic_cnt == 1 ? rd_kafka_err2str(md->topics[0].err) : "no such topic"));
  std::vector<partition_info> result;
  const auto& t = md->topics[0];
  for (int i = 0; i < t.partition_cnt; ++i) {
    const auto& p = t.partitions[i];
    partition_info info{p.id, p.leader, {p.replicas, p.replicas + p.replica_cnt}, {p.isrs, p.isrs + p.isr_cnt}};
    result.push_back(std::move(info));
  }
  std::sort(result.begin(), result.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return result;
}

std::map<std::string, std::string> describe_topic_config(const std::string& bootstrap, const std::string& topic) {
  auto rk = admin_client(bootstrap);
  rd_kafka_queue_t* queue = rd_kafka_queue_new(rk.get());
  rd_kafka_ConfigResource_t* resource = rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.c_str());
  rd_kafka_DescribeConfigs(rk.get(), &resource, 1, nullptr, queue);
  rd_kafka_ConfigResource_destroy(resource);
  rd_kafka_event_t* ev = await_event(queue, RD_KAFKA_EVENT_DESCRIBECONFIGS_RESULT, 15000);
  std::map<std::string, std::string> result;
  std::string failure;
  if (!ev) {
    failure = "no answer";
  } else if (rd_kafka_event_error(ev)) {
    failure = rd_kafka_event_error_string(ev);
  } else {
    size_t count = 0;
    const auto** resources =
        rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(ev), &count);
    for (size_t i = 0; i < count && failure.empty(); ++i) {
      if (rd_kafka_ConfigResource_error(resources[i])) {
        failure = rd_kafka_ConfigResource_error_string(resources[i]);
        break;
      }
      size_t entries = 0;
      const auto** configs = rd_kafka_ConfigResource_configs(resources[i], &entries);
      for (size_t j = 0; j < entries; ++j) {
        const char* value = rd_kafka_ConfigEntry_value(configs[j]);
        result[rd_kafka_ConfigEntry_name(configs[j])] = value ? value : "";
      }
    }
  }
  if (ev) rd_kafka_event_destroy(ev);
  rd_kafka_queue_destroy(queue);
  if (!failure.empty()) throw std::runtime_error("DescribeConfigs of '" + topic + "': " + failure);
  return result;
}

void create_topic(const std::string& bootstrap, const std::string& topic, int partitions, int replication_factor,
                  const std::map<std::string, std::string>& configs) {
  auto rk = admin_client(bootstrap);
  char errstr[512];
  rd_kafka_NewTopic_t* new_topic =
      rd_kafka_NewTopic_new(topic.c_str(), partitions, replication_factor, errstr, sizeof errstr);
  if (!new_topic) throw std::runtime_error(errstr);
  for (const auto& [key, value] : configs) rd_kafka_NewTopic_set_config(new_topic, key.c_str(), value.c_str());
  rd_kafka_queue_t* queue = rd_kafka_queue_new(rk.get());
  rd_kafka_AdminOptions_t* options = rd_kafka_AdminOptions_new(rk.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS);
  rd_kafka_AdminOptions_set_operation_timeout(options, 15000, errstr, sizeof errstr);
  rd_kafka_CreateTopics(rk.get(), &new_topic, 1, options, queue);
  rd_kafka_AdminOptions_destroy(options);
  rd_kafka_NewTopic_destroy(new_topic);
  rd_kafka_event_t* ev = await_event(queue, RD_KAFKA_EVENT_CREATETOPICS_RESULT, 20000);
  std::string failure;
  if (!ev) {
    failure = "no answer";
  } else if (rd_kafka_event_error(ev)) {
    failure = rd_kafka_event_error_string(ev);
  } else {
    size_t count = 0;
    const auto** results = rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev), &count);
    if (count != 1)
      failure = "unexpected answer";
    else if (rd_kafka_topic_result_error(results[0]))
      failure = std::string{rd_kafka_err2name(rd_kafka_topic_result_error(results[0]))} + ": " +
                (rd_kafka_topic_result_error_string(results[0]) ? rd_kafka_topic_result_error_string(results[0]) : "");
  }
  if (ev) rd_kafka_event_destroy(ev);
  rd_kafka_queue_destroy(queue);
  if (!failure.empty()) throw std::runtime_error("CreateTopics '" + topic + "': " + failure);
}

int64_t count_records(const std::string& bootstrap, const std::string& topic) {
  const auto partitions = describe_partitions(bootstrap, topic);
  auto rk = admin_client(bootstrap);
  int64_t total = 0;
  for (const auto& p : partitions) {
    int64_t low = -1, high = -1;
    // The cluster is up here: query_watermark_offsets only ignores its timeout while a leader is down.
    auto err = rd_kafka_query_watermark_offsets(rk.get(), topic.c_str(), p.id, &low, &high, 10000);
    if (err) throw std::runtime_error("watermarks of '" + topic + "': " + rd_kafka_err2str(err));
    total += high - low;
  }
  return total;
}

}  // namespace status_store::system_test
