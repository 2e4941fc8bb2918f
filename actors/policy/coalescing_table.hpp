#pragma once
// The per-key rules of the write path as a plain class: no actor framework, no Kafka, no clock (the
// caller passes the time). The coalescer actor is a shell of message handlers around it; the rules
// are unit-tested here alone (tests/unit/coalescing_table_test.cpp) and listed in
// docs/architecture.md:
// - At most two records per key are inside the producer: the head, and the newest value chasing it
//   (pipelined: sent at once, so a put does not wait a round trip for the one before it). The
//   partition keeps them in order (one request in flight, no client retries), and a record a newer
//   one has overtaken is never sent again: if it fails, it counts as coalesced. An update for a key
//   with both in flight, or backing off, or held, waits; a newer one replaces it, and the replaced
//   one counts as coalesced (docs/architecture.md#the-per-key-rules).
// - A retriable failure schedules a retry; when it is due, the key's *latest* value is sent, and a
//   newer value sent this way continues the key's failure episode (its retry count is not reset).
// - After `max_retries` retries, or at once on a non-retriable error, the update fails (counted and
//   logged); a value waiting behind it is then sent fresh.
// - putSafe (Connect's rule): written only if nothing is known for the key, the known value is from the
//   same worker, or its generation is <= the new one; checked at accept and again when a waiting
//   putSafe becomes the next to send. The known value is the last one read back or acknowledged.
// - Stale-retry guard: a retry is abandoned (stale-dropped) when another writer's tombstone is read
//   back, or another writer's record of another worker's newer generation is known. The store's own
//   records read back never abandon anything (docs/retries.md, "Own writes").
// - Outage hold: while no broker is reachable, a key's record is held in the table instead of being
//   handed to the producer (records already queued there are taken back). When a broker is
//   reachable again, every held key sends its *latest* value, once, checked as a retry is (a held
//   send is a delayed copy). A held attempt still ends after
//   the attempt timeout (message.timeout.ms) as a timed-out send would: retried or failed by the
//   KIP's rules, so an outage costs retries at the same pace as before, never more.
// Conservation law, at every moment: accepted = success + failure + coalesced + dropped_stale + pending.
#include "actors/policy/compact_key_map.hpp"
#include "messages/payloads.hpp"

#include <spdlog/logger.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace status_store {

/// Why an attempt ended, in the table's own words. The coalescer maps each judged delivery report
/// onto it; the table never sees a Kafka client's error codes.
enum class attempt_end : uint8_t {
  acknowledged,   // written
  retriable,      // a transient error: back off, then send the key's latest value
  non_retriable,  // sending the same bytes again would fail again: give up at once
  taken_back,     // returned before any broker saw it (the outage hold): the attempt goes on, held
  held_too_long,  // held with no broker reachable until the attempt timeout: ends as a retriable one
};

/// The end of one attempt, as the table is told it.
struct attempt_report {
  std::string_view key;
  uint64_t send_id = 0;  // the outgoing_record's: a report for an earlier send changes nothing
  attempt_end end = attempt_end::acknowledged;
  bool authentication = false;  // credentials or TLS set-up refused: counted apart
  std::string_view advice{};    // what an operator can change (a non-retriable end)
  std::string_view detail{};    // what went wrong, for the failure's log line
  int64_t reported_ns = 0;      // when the Kafka client reported it (0: unknown, now stands in)
  int64_t queue_us = -1;        // how long the record was inside the Kafka client (-1: unknown)
};

/// Told of every acknowledged record: its key, the generation of the value it carried (0 for a
/// topic status or a tombstone) and when the Kafka client reported it (store_options::on_acknowledged).
using ack_listener = std::function<void(std::string_view key, int32_t generation, int64_t acknowledged_ns)>;

class coalescing_table {
 public:
  /// `max_retries`: status.storage.retry.max.retries. `log` gets the failures and stale drops.
  coalescing_table(uint32_t max_retries, std::shared_ptr<spdlog::logger> log);
  /// Calls `listener` for every acknowledged record from now on (none: nobody is told).
  void listen_to_acks(ack_listener listener) { ack_listener_ = std::move(listener); }

  // ---- inputs; each may queue records to send and retries to schedule (take them below) ----------
  /// Takes in one update; `now_ns` is its put time unless it carries one.
  void accept(status_update& update, int64_t now_ns);
  /// `n` updates were replaced by newer ones before they reached the table (in the ingest table): they
  /// count as accepted and coalesced, so the conservation law holds.
  void count_coalesced_before_accept(uint64_t n) {
    counters_.accepted += n;
    counters_.coalesced += n;
  }
  /// One attempt's end (a judged delivery report). Returns true if it scheduled a retry.
  bool delivered(const attempt_report& report, int64_t now_ns);
  /// A retry's backoff has elapsed.
  void retry_due(const retry_request& due, int64_t now_ns);
  /// A record read back from the topic.
  void observed(const observed_status& seen);
  /// No broker is reachable: records are held from now on, not sent.
  void hold();
  /// A broker is reachable again (at `now_ns`): every held key sends its latest value.
  void release(int64_t now_ns);
  /// Held attempts that started more than `attempt_timeout_ns` before `now_ns` end as timed out;
  /// returns how many did.
  size_t expire_held(int64_t now_ns, int64_t attempt_timeout_ns);
  bool holding() const { return holding_; }
  /// Keys whose record is held for a reachable broker.
  size_t held() const { return held_keys_; }
  /// Counts every unresolved update as failed (the drain deadline); in flight or not.
  drain_report fail_all_unresolved();

  // ---- outputs --------------------------------------------------------------------------------------
  /// Records to hand to the producer since the last call, one per key at most.
  std::vector<outgoing_record> take_sends();
  /// Retries to hand to the scheduler since the last call.
  std::vector<retry_request> take_retries();

  /// Cumulative counters and current gauges (the latency quantiles are the metrics actor's).
  const store_counters& counters();
  /// Put-to-acknowledgement times (µs) of the updates acknowledged since the last call, hop by hop.
  std::vector<ack_timing> take_ack_timings() { return std::exchange(ack_timings_, {}); }
  /// Sequence number of the last accepted update; a flush taken now covers everything up to it.
  uint64_t last_accept_seq() const { return last_accept_seq_; }
  /// Whether every update accepted up to `seq` is resolved (acknowledged, failed, coalesced, dropped).
  bool resolved_through(uint64_t seq) const { return unresolved_.empty() || unresolved_.begin()->first > seq; }
  size_t unresolved() const { return unresolved_.size(); }

 private:
  /// An accepted update waiting to be written (the key is the map's key).
  struct pending_update {
    bool tombstone = false;
    std::string value;
    bool safe = false;
    std::string worker_id;
    int32_t generation = 0;
    uint64_t accept_seq = 0;
    int64_t accepted_ns = 0;  // when the table took it in (its put time is in unresolved_)
  };

  /// Where a key's current attempt is; a key with no work is idle.
  enum class phase : uint8_t {
    sending,      // with the producer: the delivery report for send_id is awaited
    held,         // waiting in the table for a reachable broker (the outage hold)
    backing_off,  // a retry is scheduled: the due notice whose ticket is send_id is awaited
  };

  // Memory per key matters (a worker may track a million keys, nearly all idle): an idle key keeps
  // only what putSafe needs, 24 bytes beside its compact key; the rest lives in `work` while the key
  // has an update to write (docs/benchmarks.md, "memory per key").
  /// A newer value of the key handed to the producer while the head is still in flight.
  struct chaser_send {
    pending_update value;
    uint64_t send_id = 0;
    int64_t handed_on_ns = 0;
  };
  struct work_in_progress {
    pending_update head;                   // being written, or waiting for its retry
    std::unique_ptr<chaser_send> chaser;   // only while the head is being sent
    std::unique_ptr<pending_update> next;  // the newest value waiting behind them (latest wins)
    // The current send's id: matches delivery reports to it, and a retry's due notice (its ticket)
    // to the failed send it retries.
    uint64_t send_id = 0;
    int64_t attempt_started_ns = 0;  // when the current attempt was handed on (or held)
    int64_t handed_on_ns = 0;        // when the current send was queued for the producer
    uint32_t retries_done = 0;       // retries used by the current failure episode
    phase at = phase::sending;
    bool overtaken = false;  // a newer value of the key is already written: the head is never re-sent
  };
  struct key_state {
    std::unique_ptr<work_in_progress> work;  // nullptr: idle
    // The value putSafe decides on; nullptr when none. Interned: a cluster has a handful of workers.
    const std::string* known_worker = nullptr;
    int32_t known_generation = 0;
    bool known_own = false;  // the known value is this store's own record: it never makes a retry stale
  };
  static_assert(sizeof(key_state) <= 24, "a million keys: keep the per-key state small");

  // -- what is known of a key --
  static bool can_write_safely(const key_state& ks, const pending_update& u);
  static bool is_stale_copy(const key_state& ks, const pending_update& u);
  void remember(key_state& ks, const std::string& worker_id, int32_t generation, bool own);
  static void forget(key_state& ks);
  void resolve(const pending_update& u) { unresolved_.erase(u.accept_seq); }
  void resolve_acknowledged(const pending_update& u, int64_t handed_on_ns, const attempt_report& report,
                            int64_t now_ns);
  void count_acknowledged(std::string_view key, key_state& ks, const pending_update& u, int64_t handed_on_ns,
                          const attempt_report& report, int64_t now_ns, bool newest);
  void count_attempt_end(const attempt_report& report);
  void count_failure(std::string_view key, const pending_update& u, uint32_t attempts, const attempt_report& report,
                     std::string_view why);

  // -- steps of a key's work --
  /// The key's state if its work is in phase `at` (and, given `send_id`, for that send); nullptr for a
  /// late report or the timer of a retry abandoned meanwhile.
  key_state* find_work(std::string_view key, phase at, std::optional<uint64_t> send_id = std::nullopt);
  void start_send(std::string_view key, work_in_progress& work, int64_t now_ns);
  void hand_on(std::string_view key, work_in_progress& work, int64_t now_ns);
  void hold_key(std::string_view key, work_in_progress& work);
  bool may_chase(const work_in_progress& work, const pending_update& u) const;
  void send_chaser(std::string_view key, work_in_progress& work, pending_update&& u, int64_t now_ns);
  void chase_waiting(std::string_view key, key_state& ks, int64_t now_ns);
  void chaser_delivered(std::string_view key, key_state& ks, const attempt_report& report, int64_t now_ns);
  void overtaken_head_delivered(std::string_view key, key_state& ks, const attempt_report& report, int64_t now_ns);
  void after_overtaken_head(std::string_view key, key_state& ks, int64_t now_ns);
  void acknowledged(std::string_view key, key_state& ks, const attempt_report& report, int64_t now_ns);
  bool attempt_failed(std::string_view key, key_state& ks, const attempt_report& report);
  void fail_head(std::string_view key, key_state& ks, const attempt_report& report, std::string_view why);
  bool prepare_held_send(std::string_view key, key_state& ks);
  static void promote_waiting(work_in_progress& work);
  void supersede_head(work_in_progress& work);
  void advance(std::string_view key, key_state& ks, int64_t now_ns);
  void discard_stale(std::string_view key, const key_state& ks, const pending_update& u, std::string_view what);
  void drop_as_stale(std::string_view key, key_state& ks, std::string_view what, int64_t now_ns);

  uint32_t max_retries_;
  std::shared_ptr<spdlog::logger> log_;
  compact_key_map<key_state> keys_;
  std::unordered_set<std::string> worker_ids_;  // the interned worker ids of key_state::known_worker
  /// accept_seq → put time (ns) of every unresolved update: pending, the oldest unacknowledged age and
  /// flush watermarks in one ordered structure.
  std::map<uint64_t, int64_t> unresolved_;
  uint64_t last_accept_seq_ = 0;
  uint64_t last_send_id_ = 0;
  store_counters counters_;
  std::vector<ack_timing> ack_timings_;  // put-to-acknowledgement times not yet taken, hop by hop
  ack_listener ack_listener_;
  bool holding_ = false;
  size_t held_keys_ = 0;
  std::vector<std::string> held_;  // keys held since the last release, in hold order (may be stale)
  int64_t last_now_ns_ = 0;        // the latest time an input carried, for inputs that carry none
  std::vector<outgoing_record> sends_;
  std::vector<retry_request> retries_;
};

}  // namespace status_store
