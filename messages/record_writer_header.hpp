#pragma once
// The one thing status-store adds to Connect's status records: a record header naming the store
// instance that wrote it. Keys, values, tombstones and partitions stay Connect's bytes; Connect's
// KafkaStatusBackingStore reads only keys and values, so Java workers share the topic unchanged.
// Why: a send that timed out may still be on the topic (a leader died after writing it), and the
// producer may write one send twice; only an identity carried by the record itself lets the store tell such a
// read-back from another writer's record. See docs/retries.md, "Own writes".
#include <cstdint>
#include <string>
#include <string_view>

namespace status_store {

/// The header's name. Its value is the writer id: 16 lowercase hex digits, new for every store start.
inline constexpr std::string_view writer_header_name = "status-store-writer";

/// A fresh writer id from `entropy` (e.g. std::random_device output): 16 lowercase hex digits.
std::string make_writer_id(uint64_t entropy);

/// A writer id drawn from the operating system's random source.
std::string new_writer_id();

}  // namespace status_store
