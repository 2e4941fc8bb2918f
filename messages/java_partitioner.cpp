// Kafka's default partitioner for keyed records (BuiltInPartitioner.partitionForKey):
// Utils.toPositive(Utils.murmur2(keyBytes)) % numPartitions. Written from the algorithm's
// description (MurmurHash2, 32-bit, Kafka's seed); all arithmetic is on uint32_t so the wrap-around
// of Java's int multiplication is well defined here. Verified against Kafka's UtilsTest.testMurmur2
// vectors in tests/unit/java_partitioner_test.cpp.
#include "messages/java_partitioner.hpp"

#include <cstddef>

namespace status_store {

int32_t java_murmur2(std::string_view bytes) {
  constexpr uint32_t seed = 0x9747b28cu;
  constexpr uint32_t m = 0x5bd1e995u;
  constexpr int r = 24;

  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const auto length = static_cast<uint32_t>(bytes.size());  // Java: byte[].length (an int)
  uint32_t h = seed ^ length;

  // Body: 4 bytes at a time, little-endian.
  const std::size_t blocks = bytes.size() / 4;
  for (std::size_t i = 0; i < blocks; ++i) {
    const unsigned char* p = data + i * 4;
    uint32_t k = uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
    k *= m;
    k ^= k >> r;  // Java's >>> on int: logical shift
    k *= m;
    h *= m;
    h ^= k;
  }

  // Tail: the last 1-3 bytes, falling through like Java's switch.
  const unsigned char* tail = data + blocks * 4;
  switch (bytes.size() % 4) {
    case 3:
      h ^= uint32_t{tail[2]} << 16;
      [[fallthrough]];
    case 2:
      h ^= uint32_t{tail[1]} << 8;
      [[fallthrough]];
    case 1:
      h ^= uint32_t{tail[0]};
      h *= m;
      break;
    default:
      break;
  }

  // Final avalanche.
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return static_cast<int32_t>(h);  // modular conversion (C++20): Java's int bit pattern
}

int32_t java_partition_for_key(std::string_view key, int32_t partitions) {
  // Precondition partitions > 0 (Java would throw ArithmeticException on 0). Out of contract we
  // return partition 0 rather than divide by zero.
  if (partitions <= 0) return 0;
  const int32_t positive = java_murmur2(key) & 0x7fffffff;  // Utils.toPositive
  return positive % partitions;
}

}  // namespace status_store
