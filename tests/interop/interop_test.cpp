// status-store and Kafka Connect's own Java KafkaStatusBackingStore (connect-runtime of the broker's
// version, driven by tests/interop/java) sharing one status topic on a real Kafka broker:
//   - what Connect writes, status-store reads back as the same view, and the other way round;
//   - putSafe on either side judges the other side's statuses the same way;
//   - both put every key on the same partition, with the same value bytes (plugin versions included).
// Names have dashes, dots and non-ASCII characters; traces newlines, quotes, backslashes, tabs and
// control characters. Without the broker (scripts/kafka-local.sh run 1) or the Java driver every test
// fails in SetUp; none is skipped.
#include "java_driver.hpp"
#include "status_ops.hpp"
#include "status_view.hpp"

#include "kafka_cluster.hpp"

#include "messages/java_partitioner.hpp"
#include "messages/status_record_codec.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>

using namespace status_store;
using namespace status_store::interop;
using namespace std::chrono_literals;

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// ---- the script of status reports both stores play ------------------------------------------------

const std::string conn_a = "conn-1.prod";
const std::string conn_b = "café-连接器";
const std::string conn_c = "sink.orders-v2";  // deleted as the herder deletes: task tombstones, then the connector's
const std::string worker_1 = "10.0.0.1:8083";
const std::string worker_2 = "wörker-2:8083";
const std::string trace_failed =
    "org.apache.kafka.connect.errors.ConnectException: \"boom\" in C:\\tmp\\x\n"
    "\tat com.example.Task.poll(Task.java:42)\n"
    "\tat\tcafé 连接 😀\r\n"
    "Caused by: \x01 control \x1f and DEL \x7f";
const std::string trace_restart = "restart requested by 'admin'\t\\\\ \"now\"";
const int64_t discovered = 1795979753805;

/// A connector deleted with its connector tombstone only (no task tombstones): Connect drops its tasks
/// when it reads that tombstone. A reader sees the tombstone after the tasks' records only if they
/// share a partition (across partitions the read order is arbitrary, in Java as in status-store), so
/// its name is picked such that the connector key and its two task keys hash to one partition.
std::string single_partition_connector(int32_t partitions) {
  for (int n = 0;; ++n) {
    const std::string name = "src-😀-" + std::to_string(n);
    const auto p = java_partition_for_key(connector_key(name), partitions);
    if (java_partition_for_key(task_key(name, 0), partitions) == p &&
        java_partition_for_key(task_key(name, 1), partitions) == p)
      return name;
  }
}
const std::string conn_d = single_partition_connector(5);

status_value value(status_state state, std::optional<std::string> trace, const std::string& worker, int32_t generation,
                   std::optional<std::string> version = std::nullopt) {
  return status_value{state, std::move(trace), worker, generation, std::move(version)};
}

/// What a worker reports over a connector's life: starts, a failure with a trace, plugin versions
/// (AbstractStatus.version, Connect 4.1+; ASCII, non-ASCII and none), a stale UNASSIGNED (KAFKA-12525: both readers ignore it),
/// putSafe on fresh keys, the largest generation, deletions as the herder writes them, a connector
/// tombstone alone, active topics and a topic deletion.
std::vector<status_op> worker_reports() {
  using s = status_state;
  return {
      put(connector_status{conn_a, value(s::running, {}, worker_1, 3, "1.2.3")}),
      put(task_status{conn_a, 0, value(s::running, {}, worker_1, 3, "1.2.3")}),
      flush(),
      put(task_status{conn_a, 0, value(s::failed, trace_failed, worker_1, 3, "1.2.3")}),
      put(task_status{conn_a, 1, value(s::running, {}, worker_2, 3)}),
      flush(),
      put(task_status{conn_a, 1, value(s::unassigned, {}, worker_1, 3)}),
      put_safe(connector_status{conn_b, value(s::paused, {}, worker_2, 7, "版本-2.0 \"rc\"")}),
      put_safe(task_status{conn_b, 0, value(s::unassigned, {}, worker_2, 7)}),
      put(task_status{conn_b, 12, value(s::restarting, trace_restart, worker_2, 2147483647)}),
      put(connector_status{conn_c, value(s::running, {}, worker_1, 1)}),
      put(task_status{conn_c, 0, value(s::running, {}, worker_1, 1)}),
      put(connector_status{conn_d, value(s::stopped, {}, worker_2, 0)}),
      put(task_status{conn_d, 0, value(s::running, {}, worker_2, 0)}),
      put(task_status{conn_d, 1, value(s::failed, "d1 failed\n", worker_2, 0)}),
      put_topic(topic_status{"d-topic", conn_d, 1, discovered + 3}),
      put_topic(topic_status{"orders.v1", conn_a, 0, discovered}),
      put_topic(topic_status{"payments-ü", conn_a, 1, discovered + 1}),
      put_topic(topic_status{"t_with.dots-and-dashes", conn_b, 0, discovered + 2}),
      flush(),
      put(task_status{conn_c, 0, value(s::destroyed, {}, worker_1, 1)}),
      put(connector_status{conn_c, value(s::destroyed, {}, worker_1, 1)}),
      put(connector_status{conn_d, value(s::destroyed, {}, worker_2, 0)}),
      delete_topic(conn_a, "payments-ü"),
  };
}

const std::vector<std::string> all_connectors{conn_a, conn_b, conn_c, conn_d};

/// The view worker_reports() must leave, in either store.
status_view expected_view() {
  using s = status_state;
  status_view view;
  auto& a = view[conn_a];
  a.status = value(s::running, {}, worker_1, 3, "1.2.3");
  a.tasks[0] = value(s::failed, trace_failed, worker_1, 3, "1.2.3");
  a.tasks[1] = value(s::running, {}, worker_2, 3);  // the stale UNASSIGNED is ignored
  a.topics["orders.v1"] = topic_status{"orders.v1", conn_a, 0, discovered};
  auto& b = view[conn_b];
  b.status = value(s::paused, {}, worker_2, 7, "版本-2.0 \"rc\"");
  b.tasks[0] = value(s::unassigned, {}, worker_2, 7);
  b.tasks[12] = value(s::restarting, trace_restart, worker_2, 2147483647);
  b.topics["t_with.dots-and-dashes"] = topic_status{"t_with.dots-and-dashes", conn_b, 0, discovered + 2};
  view[conn_c];  // deleted: nothing left
  view[conn_d].topics["d-topic"] =
      topic_status{"d-topic", conn_d, 1, discovered + 3};  // tasks gone, topics stay (as in Connect)
  return view;
}

/// A second worker ("w9", older generation than the statuses on the topic) reporting through putSafe:
/// refused for task A-1 (another worker wrote it in generation 3 > 2), accepted for connector B
/// (generation 8 >= 7).
const std::string worker_9 = "w9:8083";
std::vector<status_op> other_worker_put_safes() {
  return {
      put_safe(task_status{conn_a, 1, value(status_state::unassigned, {}, worker_9, 2)}),
      put_safe(connector_status{conn_b, value(status_state::failed, trace_failed, worker_9, 8, "2.0.0")}),
  };
}
status_view expected_after_put_safes() {
  auto view = expected_view();
  view[conn_b].status = value(status_state::failed, trace_failed, worker_9, 8, "2.0.0");
  return view;
}

// ---- fixture -----------------------------------------------------------------------------------------

struct Interop : system_test::single_node_test {
  void SetUp() override {
    single_node_test::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_EQ(driver.problem(), "");
    const std::string broker_version = env("KAFKA_VERSION");
    ASSERT_FALSE(broker_version.empty()) << "KAFKA_VERSION is not set (scripts/kafka-local.sh run exports it)";
    static const driver_result version = driver.version();
    ASSERT_EQ(version.exit_code, 0) << "the Java driver did not start: " << driver.jar();
    ASSERT_EQ(trimmed(version.out), broker_version)
        << "the Java driver runs connect-runtime " << trimmed(version.out) << " but the broker is Kafka "
        << broker_version << ": rebuild it with tests/interop/build-java-driver.sh (it takes KAFKA_VERSION)";
  }

  /// status-store's configuration for `topic` (created with 5 partitions when it does not exist).
  worker_config store_config(const std::string& topic) const {
    return config(topic, {{"status.storage.partitions", "5"}});
  }

  status_view java_view(const std::string& topic) {
    const auto result = driver.read(bootstrap(), topic, all_connectors);
    EXPECT_EQ(result.exit_code, 0) << "java read failed";
    return view_from_java(parse_json(result.out));
  }

  interop::java_driver driver;
};

}  // namespace

TEST_F(Interop, WhatConnectWritesStatusStoreReadsAsTheSameViewAndItsPutSafeJudgesConnectsStatuses) {
  const auto topic = unique_topic("interop-java-writes");

  const auto written = driver.write(bootstrap(), topic, to_driver_ops(worker_reports()));
  ASSERT_EQ(written.exit_code, 0) << "java write failed";

  auto reader = system_test::open_store(store_config(topic));
  const auto seen = view_from_store(*reader, all_connectors);
  const auto diffs = differences(expected_view(), seen);
  EXPECT_TRUE(diffs.empty()) << "status-store's view of what Connect wrote: " << describe_differences(diffs);
  auto m = reader->metrics();
  EXPECT_EQ(m.view.read_errors, 0u) << "status-store skipped records Connect wrote";
  EXPECT_GE(m.view.replay_records, 20u);

  // status-store's putSafe against Connect's statuses, then Connect reads the result.
  ASSERT_TRUE(play(*reader, other_worker_put_safes()));
  m = reader->metrics();
  EXPECT_EQ(m.counters.dropped_stale, 1u) << "putSafe over another worker's newer generation must be refused";
  EXPECT_EQ(m.counters.failure, 0u);
  const auto after = expected_after_put_safes();
  EXPECT_TRUE(system_test::eventually([&] { return view_from_store(*reader, all_connectors) == after; }, 10s))
      << "status-store's view after its putSafes: "
      << describe_differences(differences(after, view_from_store(*reader, all_connectors)));
  reader->stop();

  // Versions included: status-store read Connect's and wrote its own, which Connect now reads.
  const auto java = java_view(topic);
  const auto java_diffs = differences(after, java);
  EXPECT_TRUE(java_diffs.empty()) << "Connect's view after status-store's putSafes: "
                                  << describe_differences(java_diffs);
}

TEST_F(Interop, WhatStatusStoreWritesConnectReadsAsTheSameViewAndItsPutSafeJudgesStatusStoresStatuses) {
  const auto topic = unique_topic("interop-store-writes");
  {
    auto writer = system_test::open_store(store_config(topic));
    ASSERT_TRUE(play(*writer, worker_reports()));
    const auto m = writer->metrics();
    EXPECT_EQ(m.counters.failure, 0u);
    EXPECT_EQ(m.counters.dropped_stale, 0u);
    // The same script as Connect's gives status-store the same view of its own writes.
    const auto expected = expected_view();
    EXPECT_TRUE(system_test::eventually([&] { return view_from_store(*writer, all_connectors) == expected; }, 10s))
        << describe_differences(differences(expected, view_from_store(*writer, all_connectors)));
    writer->stop();
  }

  // Connect's putSafe against status-store's statuses (its start() replays them first), then Connect
  // reads everything: status-store's statuses plus the one putSafe it accepted.
  const auto written = driver.write(bootstrap(), topic, to_driver_ops(other_worker_put_safes()));
  ASSERT_EQ(written.exit_code, 0) << "java write failed";
  const auto java = java_view(topic);
  const auto diffs = differences(expected_after_put_safes(), java);
  EXPECT_TRUE(diffs.empty()) << "Connect's view of what status-store wrote (versions included): "
                             << describe_differences(diffs);
}

namespace {

/// One status per key over many names (so every partition gets keys): connector, three tasks (one a
/// tombstone) and an active topic each.
std::vector<status_op> one_status_per_key() {
  std::vector<std::string> names{conn_a, conn_b, conn_c, conn_d, "a-b-c.d-0", "连接器", "😀", "x"};
  for (int i = 0; i < 12; ++i) names.push_back("load-" + std::to_string(i) + ".é");
  std::vector<status_op> ops;
  int32_t generation = 0;
  for (const auto& name : names) {
    ++generation;
    ops.push_back(put(connector_status{name, value(status_state::running, {}, worker_1, generation)}));
    ops.push_back(
        put(task_status{name, 0, value(status_state::failed, trace_failed, worker_2, generation, name + "-1.0")}));
    ops.push_back(put(task_status{name, 1, value(status_state::paused, trace_restart, worker_1, generation)}));
    ops.push_back(put(task_status{name, 2, value(status_state::destroyed, {}, worker_1, generation)}));
    ops.push_back(put_topic(topic_status{"topic." + name, name, 1, discovered + generation}));
  }
  return ops;
}

}  // namespace

TEST_F(Interop, BothStoresPutEveryKeyOnJavasPartitionWithTheSameValueBytes) {
  const auto topic = unique_topic("interop-partitions");
  const auto ops = one_status_per_key();
  {
    auto writer = system_test::open_store(store_config(topic));
    ASSERT_TRUE(play(*writer, ops));
    EXPECT_EQ(writer->metrics().counters.failure, 0u);
    writer->stop();
  }
  const auto written = driver.write(bootstrap(), topic, to_driver_ops(ops));
  ASSERT_EQ(written.exit_code, 0) << "java write failed";

  const auto result = driver.records(bootstrap(), topic);
  EXPECT_EQ(result.exit_code, 0) << "Java found records off their key's partition (see its stderr above)";
  // key -> its records in offset order: status-store's (written first, all acknowledged), then Connect's.
  std::map<std::string, std::vector<nlohmann::json>> by_key;
  std::set<int32_t> partitions_used;
  for (auto& record : parse_json_lines(result.out)) {
    const auto key = record.at("key").get<std::string>();
    const auto partition = record.at("partition").get<int32_t>();
    ASSERT_EQ(record.at("partitions").get<int32_t>(), 5);
    EXPECT_EQ(partition, record.at("key_partition").get<int32_t>()) << key << ": not where Java's producer puts it";
    EXPECT_EQ(partition, java_partition_for_key(key, 5)) << key << ": not where status-store's murmur2 copy says";
    partitions_used.insert(partition);
    by_key[key].push_back(std::move(record));
  }
  EXPECT_EQ(partitions_used.size(), 5u) << "the keys should cover every partition for the check to mean something";
  ASSERT_EQ(by_key.size(), ops.size()) << "one key per status";

  size_t tombstones = 0, null_versions = 0, string_versions = 0;
  for (const auto& [key, records] : by_key) {
    ASSERT_EQ(records.size(), 2u) << key << ": expected one record from each store";
    const auto& ours = records[0];
    const auto& theirs = records[1];
    EXPECT_EQ(ours.at("partition"), theirs.at("partition")) << key << ": the stores put it on different partitions";
    EXPECT_LT(ours.at("offset").get<int64_t>(), theirs.at("offset").get<int64_t>()) << key;
    auto bytes = [](const nlohmann::json& r) {
      return r.at("value").is_null() ? std::nullopt : std::optional<std::string>{r.at("value").get<std::string>()};
    };
    const auto our_value = bytes(ours);
    const auto their_value = bytes(theirs);
    if (!our_value) ++tombstones;
    EXPECT_EQ(our_value, their_value) << key << ": status-store's value bytes differ from Connect's";
    if (their_value && (key.starts_with("status-connector-") || key.starts_with("status-task-"))) {
      // Both forms of the version field occur: null and a string.
      ++(their_value->ends_with(",\"version\":null}") ? null_versions : string_versions);
    }
  }
  EXPECT_EQ(tombstones, 20u) << "each name's task 2 is a tombstone on both sides";
  EXPECT_EQ(null_versions, 40u) << "each name's connector and task 1 have no version";
  EXPECT_EQ(string_versions, 20u) << "each name's task 0 has one";
}
