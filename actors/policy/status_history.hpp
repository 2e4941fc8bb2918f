#pragma once
// The last transitions of every connector and task, as the status view reads them from the topic:
// bounded per key and in total, a key's history gone with its tombstone. Pure logic: no actor, no
// Kafka; the caller passes each record's time (docs/operations.md).
//
// A record is a transition when its state, worker or generation differs from the key's last one; the
// same status written again (a retry's second copy, a putSafe rewrite) adds nothing. Beyond the total
// cap the oldest transitions go first, whichever key they belong to, in batches of a tenth of the cap
// so that a full history costs amortised O(log n) per record, not a scan each.
#include "actors/policy/compact_key.hpp"
#include "messages/history.hpp"  // status_transition
#include "messages/status.hpp"
#include "messages/view_overview.hpp"  // key_change

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace status_store {

/// The first line of a trace, cut to `max_bytes` without splitting a UTF-8 character.
std::string first_line_of(std::string_view trace, std::size_t max_bytes = 512);

class status_history {
 public:
  struct limits {
    uint32_t per_key = 16;
    std::size_t total = 1'000'000;
  };

  explicit status_history(limits l) : limits_{l} {}

  /// One status record of `key`: kept when it is a transition; returns whether it was.
  bool record(std::string_view key, status_transition t);
  /// A tombstone: the key and its history are gone.
  void erase(std::string_view key);
  /// The key's transitions, oldest first; empty when none is known.
  std::vector<status_transition> of(std::string_view key) const;
  /// Each key's newest transition's timestamp (its last change as read), in key order.
  std::vector<key_change> last_changes() const;
  /// The oldest transition's timestamp: how far back the history reaches; nullopt when empty.
  std::optional<int64_t> reaches_back_to() const;

  std::size_t transitions() const { return total_; }
  std::size_t keys() const { return keys_.size(); }

 private:
  struct entry {
    uint64_t sequence = 0;
    status_transition transition;
  };
  /// A key's transitions, oldest first: a vector grown one entry at a time up to the per-key cap, then
  /// a ring (a deque's first block alone is 512 bytes, most keys hold one or two transitions).
  class ring {
   public:
    std::size_t size() const { return live_; }
    bool empty() const { return live_ == 0; }
    const entry& at(std::size_t i) const { return slots_[(first_ + i) % slots_.size()]; }
    const entry& front() const { return at(0); }
    const entry& back() const { return at(live_ - 1); }
    /// Appends `e`; when `cap` are held, the oldest makes room (returns true: one was dropped).
    bool push(entry&& e, std::size_t cap);
    void pop_front();

   private:
    std::vector<entry> slots_;
    std::size_t first_ = 0;
    std::size_t live_ = 0;
  };
  void evict_oldest();

  limits limits_;
  // Hashed, not ordered: every record read looks its key up here (docs/benchmarks.md#changes-measured-against-it).
  std::unordered_map<compact_key, ring, compact_key_hash, compact_key_equal> keys_;
  std::size_t total_ = 0;
  uint64_t next_sequence_ = 0;
};

}  // namespace status_store
