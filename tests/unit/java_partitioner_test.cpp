// Kafka's Java default partitioner for keyed records: murmur2 vectors from Kafka's own
// UtilsTest.testMurmur2 (apache/kafka clients/src/test/java/org/apache/kafka/common/utils/UtilsTest.java),
// and agreement with librdkafka's "murmur2" partitioner, which the producer is configured with.
#include "messages/java_partitioner.hpp"
#include "messages/status_record_codec.hpp"

#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>

#include <string>
#include <utility>
#include <vector>

namespace status_store {
namespace {

const std::vector<std::pair<std::string, int32_t>>& kafka_utils_test_vectors() {
  static const std::vector<std::pair<std::string, int32_t>> vectors{
      {"21", -973932308},
      {"foobar", -790332482},
      {"a-little-bit-long-string", -985981536},
      {"a-little-bit-longer-string", -1486304829},
      {"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971},
      {"abc", 479470107},
  };
  return vectors;
}

TEST(JavaMurmur2, MatchesKafkaUtilsTestVectors) {
  for (const auto& [input, expected] : kafka_utils_test_vectors()) {
    EXPECT_EQ(java_murmur2(input), expected) << "murmur2(\"" << input << "\")";
  }
}

TEST(JavaMurmur2, CoversEveryTailLength) {
  // Lengths 2 (tail 2), 6 (tail 2), 24 (tail 0), 26 (tail 2), 48 (tail 0), 3 (tail 3) are in the
  // vectors above; add tails 1 and 3 against librdkafka's independent implementation.
  for (const std::string key : {"a", "abcde", "abcdefg", "status-task-conn-0", "status-connector-c"}) {
    const int32_t ours = java_partition_for_key(key, 1'000'003);
    const int32_t theirs =
        rd_kafka_msg_partitioner_murmur2(nullptr, key.data(), key.size(), 1'000'003, nullptr, nullptr);
    EXPECT_EQ(ours, theirs) << key;
  }
}

TEST(JavaMurmur2, HighBytesAreUnsigned) {
  // Java masks each byte with 0xff; a sign-extending implementation would disagree with librdkafka.
  const std::string key = "\xff\xfe\x80\x81\xc3\xbc\xf0\x9f\x98\x80x";
  EXPECT_EQ(java_partition_for_key(key, 97),
            rd_kafka_msg_partitioner_murmur2(nullptr, key.data(), key.size(), 97, nullptr, nullptr));
}

TEST(JavaPartitionForKey, IsToPositiveModuloPartitions) {
  for (const auto& [input, hash] : kafka_utils_test_vectors()) {
    for (int32_t partitions : {1, 5, 25, 50, 97}) {
      EXPECT_EQ(java_partition_for_key(input, partitions), (hash & 0x7fffffff) % partitions)
          << input << " over " << partitions;
    }
  }
  EXPECT_EQ(java_partition_for_key("foobar", 50), 16);
}

TEST(JavaPartitionForKey, AgreesWithLibrdkafkaMurmur2Partitioner) {
  // librdkafka's partitioner=murmur2_random hashes non-null keys with the same murmur2.
  for (int32_t partitions : {1, 3, 5, 25}) {
    for (int i = 0; i < 500; ++i) {
      const std::string key =
          i % 2 == 0 ? task_key("connector-" + std::to_string(i % 37), i) : connector_key("conn-" + std::to_string(i));
      const int32_t expected =
          rd_kafka_msg_partitioner_murmur2(nullptr, key.data(), key.size(), partitions, nullptr, nullptr);
      ASSERT_EQ(java_partition_for_key(key, partitions), expected) << key << " over " << partitions;
    }
  }
}

TEST(JavaPartitionForKey, ResultIsAlwaysInRange) {
  for (int i = 0; i < 2000; ++i) {
    const std::string key = "key-" + std::to_string(i * 7919);
    const int32_t p = java_partition_for_key(key, 5);
    ASSERT_GE(p, 0);
    ASSERT_LT(p, 5);
  }
}

TEST(JavaPartitionForKey, NonPositivePartitionCountGivesZeroInsteadOfDividingByZero) {
  EXPECT_EQ(java_partition_for_key("foobar", 0), 0);
  EXPECT_EQ(java_partition_for_key("foobar", -3), 0);
}

}  // namespace
}  // namespace status_store
