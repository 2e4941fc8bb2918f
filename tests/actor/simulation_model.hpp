#pragma once
// What the fault simulation remembers of the updates it gave the store and of the topic it fakes.
#include "caf/actor_clock.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace status_store::testing::simulation {

using time_point = caf::actor_clock::time_point;

/// What the simulation remembers of one accepted update.
struct accepted_update {
  uint64_t seq = 0;
  bool safe = false;
  bool tombstone = false;
  std::string worker;
  int32_t generation = 0;
  time_point at;
};

/// The latest record of a key on the simulated topic.
struct topic_entry {
  std::optional<std::string> value;
  std::string worker;  // empty for topic statuses and tombstones
  int32_t generation = 0;
};

/// A record on the topic that the reader has not delivered yet; the log is read in order.
struct unread_record {
  std::string key;
  std::optional<std::string> value;
  std::string worker;
  int32_t generation = 0;
  bool own = false;
  time_point readable_at;
};

/// What the store can know of a key: the last record read back or acknowledged (putSafe's "known
/// value"), and whether it was the store's own.
struct known_entry {
  std::string worker;  // empty: nothing known, or a record without a worker
  int32_t generation = 0;
  bool own = false;
};

/// A fate's broker-side effect that happens before the client hears of it: a timed-out send the
/// broker kept, or the first copy of a send written twice.
struct broker_write {
  std::string key;
  std::optional<std::string> value;
  std::string worker;
  int32_t generation = 0;
  uint64_t send_id = 0;
};

struct key_model {
  std::map<std::string, uint64_t> seq_of_value;  // value bytes (unique by construction) -> seq
  std::vector<accepted_update> accepted;
  time_point last_put{}, last_report{}, last_foreign_delete{};
  bool has_put = false, has_report = false, has_foreign_delete = false;
  // Under the outage hold the store ends held attempts and schedules retries the simulation does not
  // see; a key that was pending when a hold began may then send a retry it cannot time.
  bool held_episode = false;
  bool awaiting_retry = false;  // the last send failed with a retriable error
  time_point failure_at{};
  uint64_t failed_seq = 0;
  uint32_t retries = 0;  // retries of the current episode
  uint64_t last_acked_seq = 0;
  time_point last_fate_at{};               // when the key's latest record's fate lands (the partition's order)
  std::optional<std::string> final_value;  // the tail's last put
};

}  // namespace status_store::testing::simulation
