#pragma once
// The one door where callers' threads hand status updates to the actor system: a table keyed by
// record key in which the newest update replaces an older one still waiting. A caller holds its lock
// for one map insert; the coalescer for one swap, storm or not (it sorts a storm outside). It is woken
// by one message when the table goes from empty to waiting, and never more than one wake-up is
// outstanding. Memory is bounded by the number of distinct keys, whatever the update rate.
// Everything else in status-store talks through typed messages (docs/architecture.md, "The ingest").
#include "messages/payloads.hpp"

#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace status_store {

class ingest_table {
 public:
  enum class offer_result : uint8_t {
    waiting,      // queued (or replaced a waiting update); a wake-up is already outstanding
    wake_needed,  // queued into an idle table: the caller must send the coalescer one wake message
    refused,      // the store is stopping; nothing was queued
  };

  /// Queues `update`, replacing the key's waiting update if there is one.
  offer_result offer(status_update update);
  /// The same as offer(update), copying `update` into the key's entry: the one still waiting, else
  /// one the coalescer has taken, its strings' capacity reused, so that once the buffers have grown
  /// a put allocates nothing. The facade's put fills one update per thread and hands it over this way.
  offer_result offer_copy(const status_update& update);
  /// Queues every update in order (a later one for the same key replaces an earlier one).
  offer_result offer_all(std::vector<status_update> updates);
  /// offer_all by copying, as offer_copy does each: the facade's put_all of statuses fills a
  /// per-thread batch and hands it over this way, allocating nothing once the buffers have grown.
  offer_result offer_copies(std::span<const status_update> updates);

  struct batch {
    std::vector<status_update> updates;
    uint64_t replaced = 0;  // updates replaced in the table since the last take: coalesced, never sent
    bool more = false;      // updates are still waiting: the wake-up stays outstanding
  };
  /// Takes at most `max` waiting updates, the oldest first, in the order of each key's last put (so
  /// that idle keys are written in put order, as if each put had been a message). `by_wake_up`: the outstanding
  /// wake-up is being served, so when none remain the next offer needs a new one; a take for another
  /// reason (a flush, a stop) leaves the outstanding wake-up to be served, as an empty take. Holds
  /// the callers' lock for two swaps and a few counters, whatever waits; one taker at a time (the
  /// coalescer), since a storm's backlog is the taker's own.
  batch take(size_t max, bool by_wake_up = true);

  /// Refuses every later offer. What is already waiting can still be taken.
  void close();

  size_t waiting() const;
  /// Updates refused since close() (status-update-after-stop-total): an offer_all counts each of its updates.
  uint64_t refused() const;
  /// Updates handed to the coalescer by take(), those replaced in the table included: as much as the
  /// coalescer's accepted counter got from this table (the facade's count when a drain gets no answer).
  uint64_t taken() const;

  /// Entries the coalescer took are kept for later puts, up to this many on each side of the lock.
  static constexpr size_t kept_entries = 2048;

 private:
  struct entry {
    status_update update;
    uint64_t put_seq = 0;  // order of the key's last put
  };
  using table = std::unordered_map<std::string, entry>;
  std::pair<table::iterator, bool> entry_for_locked(const std::string& key);
  offer_result insert_locked(status_update&& update);
  offer_result copy_locked(const status_update& update);
  offer_result refuse_locked(uint64_t updates);
  offer_result mark_put_locked(entry& e);
  void append_in_put_order(table& taken, std::vector<status_update>& out);
  void keep_taken_locked();

  mutable std::mutex mutex_;
  // A storm larger than a batch, taken out of the table at once and sorted into put order: handed
  // out from here by later takes, before anything put since. The taker's alone (no lock).
  std::vector<status_update> backlog_;
  size_t backlog_next_ = 0;
  size_t backlog_waiting_ = 0;  // backlog_'s updates not yet handed out, for waiting() (under mutex_)
  // The key lives in the map only (copied into the update on take): one copy per key.
  table waiting_;
  // Taken entries, their strings' capacity intact, for a put of a key not waiting: in steady state a
  // put allocates nothing (docs/architecture.md, "The ingest"). Callers' (under mutex_).
  std::vector<table::node_type> kept_;
  // The taker's alone: the swapped-out table, kept with its buckets; the entries it has just taken;
  // the order a take sorts them into.
  table taken_table_;
  std::vector<table::node_type> returned_;
  std::vector<std::pair<uint64_t, table::node_type>> order_;
  uint64_t last_put_seq_ = 0;
  uint64_t replaced_ = 0;
  uint64_t refused_ = 0;
  uint64_t taken_ = 0;
  bool wake_outstanding_ = false;
  bool closed_ = false;
};

}  // namespace status_store
