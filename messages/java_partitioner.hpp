#pragma once
// Kafka's Java default partitioner for keyed records: toPositive(murmur2(keyBytes)) % numPartitions.
// The producer's "murmur2_random" partitioner computes the same; this pure copy lets tests prove that a
// key lands where a Java worker would put it.
#include <cstdint>
#include <string_view>

namespace status_store {

/// org.apache.kafka.common.utils.Utils.murmur2 (seed 0x9747b28c), as a signed 32-bit result.
int32_t java_murmur2(std::string_view bytes);

/// Utils.toPositive(murmur2(key)) % partitions.
int32_t java_partition_for_key(std::string_view key, int32_t partitions);

}  // namespace status_store
