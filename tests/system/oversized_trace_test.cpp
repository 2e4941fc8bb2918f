// A FAILED status whose trace is larger than the broker accepts: Connect sends the whole trace, the
// broker refuses the record as too large (non-retriable) and the FAILED status is lost. status-store
// cuts the trace to status.storage.trace.max.bytes first and the status is written. Both halves run
// against the same real broker and the same topic, whose max.message.bytes is set low, so the test
// also proves that the whole trace really is refused there.
#include "kafka_cluster.hpp"

#include "messages/trace_truncation.hpp"

#include <gtest/gtest.h>

using namespace status_store;
using namespace status_store::system_test;
using namespace std::chrono_literals;

namespace {

struct OversizedTrace : single_node_test {};

constexpr int broker_limit_bytes = 100'000;  // the topic's max.message.bytes

/// About `bytes` bytes of a Java trace whose root cause is on its last line.
std::string long_trace(std::size_t bytes) {
  std::string trace =
      "org.apache.kafka.connect.errors.ConnectException: Exiting WorkerSinkTask due to unrecoverable exception.\n";
  for (int frame = 0; trace.size() < bytes; ++frame)
    trace += "\tat org.apache.kafka.connect.runtime.WorkerSinkTask.deliverMessages(WorkerSinkTask.java:" +
             std::to_string(600 + frame) + ")\n";
  trace += "Caused by: java.sql.SQLException: \"relation \\\"orders\\\" does not exist\"";
  return trace;
}

}  // namespace

TEST_F(OversizedTrace, AFailedStatusWhoseWholeTraceTheBrokerRefusesIsWrittenWithItsTraceCut) {
  const auto topic = unique_topic("trace");
  const properties topic_with_low_limit{{"status.storage.partitions", "1"},
                                        {"status.storage.max.message.bytes", std::to_string(broker_limit_bytes)}};
  const std::string trace = long_trace(300'000);
  const task_status failed{"jdbc-sink.orders", 3, {status_state::failed, trace, "worker-a:8083", 12}};

  // 1. As Connect does: the whole trace (a budget above its size). The broker refuses the record, and
  //    the failure is counted, not retried.
  {
    auto whole = this->config(topic, topic_with_low_limit);
    whole.trace_max_bytes = 1'000'000;
    auto s = open_store(whole);
    s->put_safe(failed);
    ASSERT_TRUE(s->flush(60s));
    const auto c = s->metrics().counters;
    EXPECT_EQ(c.failure, 1u) << "the broker was expected to refuse a " << trace.size() << "-byte trace";
    EXPECT_EQ(c.success, 0u);
    EXPECT_EQ(c.retry, 0u) << "a record too large is not retriable";
    s->stop();
  }
  EXPECT_EQ(count_records(bootstrap(), topic), 0) << "the whole trace should not have reached the topic";

  // 2. status-store's default budget: the trace is cut, the FAILED status is written.
  const auto config = this->config(topic, topic_with_low_limit);
  ASSERT_EQ(config.trace_max_bytes, 65'536);
  {
    auto s = open_store(config);
    s->put_safe(failed);
    ASSERT_TRUE(s->flush(60s));
    const auto c = s->metrics().counters;
    EXPECT_EQ(c.success, 1u);
    EXPECT_EQ(c.failure, 0u);
    s->stop();
  }
  EXPECT_EQ(count_records(bootstrap(), topic), 1);

  // 3. Any worker that starts later reads the FAILED state, who wrote it, and a trace that says it
  //    was cut, with the exception on top and the root cause at the bottom.
  auto reader = open_store(config);
  const auto read_back = reader->get("jdbc-sink.orders", 3);
  ASSERT_TRUE(read_back.has_value());
  EXPECT_EQ(read_back->value.state, status_state::failed);
  EXPECT_EQ(read_back->value.worker_id, "worker-a:8083");
  EXPECT_EQ(read_back->value.generation, 12);
  ASSERT_TRUE(read_back->value.trace.has_value());
  const std::string& cut = *read_back->value.trace;
  EXPECT_LE(cut.size(), 65'536u);
  EXPECT_NE(cut.find(trace_truncation_marker_prefix), std::string::npos);
  EXPECT_NE(cut.find(" of " + std::to_string(trace.size()) + " bytes removed"), std::string::npos);
  EXPECT_TRUE(cut.starts_with("org.apache.kafka.connect.errors.ConnectException: Exiting WorkerSinkTask"));
  EXPECT_TRUE(cut.ends_with("Caused by: java.sql.SQLException: \"relation \\\"orders\\\" does not exist\""));
  reader->stop();
}
