#include "actors/policy/coalescing_table.hpp"

#include "actors/policy/ack_hops.hpp"

#include <algorithm>

namespace status_store {

coalescing_table::coalescing_table(uint32_t max_retries, std::shared_ptr<spdlog::logger> log)
    : max_retries_(max_retries), log_(std::move(log)) {}

bool coalescing_table::can_write_safely(const key_state& ks, const pending_update& u) {
  return !ks.known_worker || *ks.known_worker == u.worker_id || ks.known_generation <= u.generation;
}

void coalescing_table::remember(key_state& ks, const std::string& worker_id, int32_t generation, bool own) {
  ks.known_worker = &*worker_ids_.insert(worker_id).first;
  ks.known_generation = generation;
  ks.known_own = own;
}

void coalescing_table::forget(key_state& ks) {
  ks.known_worker = nullptr;
  ks.known_generation = 0;
  ks.known_own = false;
}

/// A retry or a held send is a delayed copy: it is stale once another writer's record of another
/// worker's newer generation is known (ownership moved on). A record of our own (a send that timed
/// out but was written, say) never makes it stale.
bool coalescing_table::is_stale_copy(const key_state& ks, const pending_update& u) {
  return !ks.known_own && !u.worker_id.empty() && !can_write_safely(ks, u);
}

/// resolve() for an acknowledged record: the same one lookup also yields its put time, and so its
/// put-to-acknowledgement time, hop by hop.
void coalescing_table::resolve_acknowledged(const pending_update& u, int64_t handed_on_ns, const attempt_report& report,
                                            int64_t now_ns) {
  const auto put = unresolved_.find(u.accept_seq);
  if (put == unresolved_.end()) return;
  ack_timings_.push_back(
      ack_hops(ack_instants{put->second, u.accepted_ns, handed_on_ns, report.reported_ns, report.queue_us, now_ns}));
  unresolved_.erase(put);
}

/// `u` is written. What it says becomes known for the key unless a newer value of the key is written
/// already (`newest` false: an overtaken head's late report).
void coalescing_table::count_acknowledged(std::string_view key, key_state& ks, const pending_update& u,
                                          int64_t handed_on_ns, const attempt_report& report, int64_t now_ns,
                                          bool newest) {
  ++counters_.success;
  if (newest) {
    if (u.tombstone)
      forget(ks);
    else if (!u.worker_id.empty())  // connector and task statuses: our write is now known
      remember(ks, u.worker_id, u.generation, true);
  }
  if (ack_listener_) ack_listener_(key, u.generation, report.reported_ns > 0 ? report.reported_ns : now_ns);
  resolve_acknowledged(u, handed_on_ns, report, now_ns);
}

namespace {
/// What an attempt's end says in a failure's log line.
std::string_view describe(const attempt_report& r) {
  if (!r.detail.empty()) return r.detail;
  switch (r.end) {
    case attempt_end::held_too_long:
      return "held until the attempt timeout with no broker reachable";
    case attempt_end::non_retriable:
      return "not retriable";
    default:
      return "attempt failed";
  }
}
}  // namespace

coalescing_table::key_state* coalescing_table::find_work(std::string_view key, phase at,
                                                         std::optional<uint64_t> send_id) {
  key_state* ks = keys_.find(key);
  if (ks == nullptr || !ks->work || ks->work->at != at) return nullptr;
  if (send_id && ks->work->send_id != *send_id) return nullptr;
  return ks;
}

/// A new attempt: handed to the producer, or held while no broker is reachable.
void coalescing_table::start_send(std::string_view key, work_in_progress& work, int64_t now_ns) {
  work.attempt_started_ns = now_ns;
  if (holding_) {
    work.send_id = ++last_send_id_;
    hold_key(key, work);
    return;
  }
  hand_on(key, work, now_ns);
}

/// The key's attempt waits in the table for a reachable broker.
void coalescing_table::hold_key(std::string_view key, work_in_progress& work) {
  work.at = phase::held;
  ++held_keys_;
  held_.emplace_back(key);
}

/// An attempt goes to the producer (a held one keeps its start time).
void coalescing_table::hand_on(std::string_view key, work_in_progress& work, int64_t now_ns) {
  work.at = phase::sending;
  work.handed_on_ns = now_ns;
  work.send_id = ++last_send_id_;
  ++counters_.in_flight;
  sends_.push_back(outgoing_record{std::string{key}, work.head.tombstone, work.head.value, work.send_id});
}

/// The head is written: what it says is now known for the key, and the waiting value goes next.
void coalescing_table::acknowledged(std::string_view key, key_state& ks, const attempt_report& report, int64_t now_ns) {
  count_acknowledged(key, ks, ks.work->head, ks.work->handed_on_ns, report, now_ns, true);
  advance(key, ks, now_ns);
}

/// A retriable end of an attempt: a retry is scheduled, or the update fails once its retries are used.
bool coalescing_table::attempt_failed(std::string_view key, key_state& ks, const attempt_report& report) {
  auto& work = *ks.work;
  if (work.retries_done >= max_retries_) {
    fail_head(key, ks, report, "retries exhausted");
    return false;
  }
  work.at = phase::backing_off;
  ++counters_.waiting_retry;
  retries_.push_back(retry_request{std::string{key}, work.retries_done, work.send_id});
  return true;
}

void coalescing_table::count_failure(std::string_view key, const pending_update& u, uint32_t attempts,
                                     const attempt_report& report, std::string_view why) {
  ++counters_.failure;
  log_->error("status update for key '{}' failed after {} attempt(s): {}; {}", key, attempts, describe(report), why);
  resolve(u);
}

void coalescing_table::fail_head(std::string_view key, key_state& ks, const attempt_report& report,
                                 std::string_view why) {
  count_failure(key, ks.work->head, ks.work->retries_done + 1, report, why);
  advance(key, ks, last_now_ns_);
}

/// A held attempt is about to go on (a broker is reachable again): the latest value replaces a held
/// one that never reached a broker, and the send, a delayed copy, is checked as a retry is. False if
/// nothing is left to send for the key.
bool coalescing_table::prepare_held_send(std::string_view key, key_state& ks) {
  auto& work = *ks.work;
  if (work.next) {
    supersede_head(work);
    if (work.head.safe && !can_write_safely(ks, work.head)) {  // a waiting putSafe, decided now
      drop_as_stale(key, ks, "held putSafe", last_now_ns_);
      return false;
    }
  }
  if (is_stale_copy(ks, work.head)) {
    drop_as_stale(key, ks, "held update", last_now_ns_);
    return false;
  }
  return true;
}

/// The waiting value becomes the head.
void coalescing_table::promote_waiting(work_in_progress& work) {
  work.head = std::move(*work.next);
  work.next.reset();
}

/// The waiting value replaces an unresolved head, which counts as coalesced.
void coalescing_table::supersede_head(work_in_progress& work) {
  ++counters_.coalesced;
  resolve(work.head);
  promote_waiting(work);
}

/// The head is resolved (acknowledged, failed or dropped): the waiting value, if any, goes next. A
/// waiting putSafe is a delayed call, so its rule is checked again against what is known now.
void coalescing_table::advance(std::string_view key, key_state& ks, int64_t now_ns) {
  auto& work = *ks.work;
  if (!work.next) {
    ks.work.reset();  // idle again
    return;
  }
  promote_waiting(work);
  work.retries_done = 0;
  if (work.head.safe && !can_write_safely(ks, work.head)) {
    drop_as_stale(key, ks, "waiting putSafe", now_ns);
    return;
  }
  start_send(key, work, now_ns);
}

/// `u` would overwrite a newer owner's value, or resurrect a key another writer deleted: it is
/// counted dropped_stale and resolved, never written.
void coalescing_table::discard_stale(std::string_view key, const key_state& ks, const pending_update& u,
                                     std::string_view what) {
  ++counters_.dropped_stale;
  if (ks.known_worker)
    log_->debug("{} for key '{}' (worker '{}', generation {}) dropped: worker '{}' wrote generation {}", what, key,
                u.worker_id, u.generation, *ks.known_worker, ks.known_generation);
  else
    log_->info("{} for key '{}' abandoned: another writer's tombstone for it was read back", what, key);
  resolve(u);
}

/// The head is discarded as stale; the waiting value, if any, goes next.
void coalescing_table::drop_as_stale(std::string_view key, key_state& ks, std::string_view what, int64_t now_ns) {
  discard_stale(key, ks, ks.work->head, what);
  advance(key, ks, now_ns);
}

void coalescing_table::accept(status_update& u, int64_t now_ns) {
  last_now_ns_ = now_ns;
  ++counters_.accepted;
  pending_update p{u.tombstone,  std::move(u.value), u.safe, std::move(u.worker_id),
                   u.generation, ++last_accept_seq_, now_ns};
  unresolved_.emplace(p.accept_seq, u.put_ns > 0 ? u.put_ns : now_ns);
  auto& ks = *keys_.try_emplace(u.key).first;
  if (p.safe && !can_write_safely(ks, p)) {
    discard_stale(u.key, ks, p, "putSafe");
    return;
  }
  if (!ks.work) {
    ks.work = std::make_unique<work_in_progress>();
    ks.work->head = std::move(p);
    start_send(u.key, *ks.work, now_ns);
    return;
  }
  auto& work = *ks.work;
  if (work.next) {
    ++counters_.coalesced;
    resolve(*work.next);
    *work.next = std::move(p);  // reuse the allocation
    return;
  }
  if (may_chase(work, p)) {
    send_chaser(u.key, work, std::move(p), now_ns);
    return;
  }
  work.next = std::make_unique<pending_update>(std::move(p));
}

/// A send the table waited for has ended: counted before the per-key rules decide what follows, so a
/// retriable error counts whether the value is re-sent, overtaken by a newer one or given up.
void coalescing_table::count_attempt_end(const attempt_report& r) {
  --counters_.in_flight;
  if (r.end == attempt_end::retriable || r.end == attempt_end::held_too_long) ++counters_.attempt_errors;
}

bool coalescing_table::delivered(const attempt_report& r, int64_t now_ns) {
  last_now_ns_ = now_ns;
  if (key_state* chased = keys_.find(r.key);
      chased && chased->work && chased->work->chaser && chased->work->chaser->send_id == r.send_id) {
    count_attempt_end(r);
    chaser_delivered(r.key, *chased, r, now_ns);
    return false;
  }
  // A report for a send we no longer wait for (e.g. after the drain deadline) changes nothing.
  key_state* ks = find_work(r.key, phase::sending, r.send_id);
  if (!ks) return false;
  count_attempt_end(r);
  if (ks->work->chaser || ks->work->overtaken) {
    overtaken_head_delivered(r.key, *ks, r, now_ns);
    return false;
  }
  switch (r.end) {
    case attempt_end::acknowledged:
      acknowledged(r.key, *ks, r, now_ns);
      return false;
    case attempt_end::non_retriable:
      if (r.authentication) ++counters_.authentication_failure;
      fail_head(r.key, *ks, r,
                r.advice.empty() ? std::string{"not retriable"} : "not retriable: " + std::string{r.advice});
      return false;
    case attempt_end::retriable:
    case attempt_end::held_too_long:
      return attempt_failed(r.key, *ks, r);
    case attempt_end::taken_back:
      // Taken back from the producer's queue by the outage hold: the attempt goes on, held here,
      // or through the producer again if a broker became reachable meanwhile.
      if (holding_) {
        hold_key(r.key, *ks->work);
      } else if (prepare_held_send(r.key, *ks)) {
        hand_on(r.key, *ks->work, now_ns);
      }
      return false;
  }
  return false;
}

void coalescing_table::retry_due(const retry_request& due, int64_t now_ns) {
  last_now_ns_ = now_ns;
  // A notice for a retry abandoned meanwhile (its key may be backing off again, for another send).
  key_state* ks = find_work(due.key, phase::backing_off, due.ticket);
  if (!ks) return;
  auto& work = *ks->work;
  --counters_.waiting_retry;
  ++work.retries_done;
  if (work.next) supersede_head(work);  // the retry sends the latest value
  // A retry is a delayed copy: re-check putSafe's rule against what the topic now shows, for plain
  // puts too.
  if (is_stale_copy(*ks, work.head)) {
    drop_as_stale(due.key, *ks, "retry", now_ns);
    return;
  }
  ++counters_.retry;
  start_send(due.key, work, now_ns);
}

/// Another writer's tombstone abandons a retry waiting for its backoff (as Connect does when the
/// entry is deleted): re-sending would resurrect the key. Our own records never abandon anything.
void coalescing_table::observed(const observed_status& o) {
  // Nothing known of a deleted key, nothing to forget: a tombstone makes no entry.
  key_state* found = o.tombstone ? keys_.find(o.key) : keys_.try_emplace(o.key).first;
  if (found == nullptr) return;
  auto& ks = *found;
  if (!o.tombstone) {
    remember(ks, o.worker_id, o.generation, o.own);
    return;
  }
  forget(ks);
  if (o.own || !ks.work || ks.work->at != phase::backing_off) return;
  --counters_.waiting_retry;
  drop_as_stale(o.key, ks, "retry", last_now_ns_);
}

drain_report coalescing_table::fail_all_unresolved() {
  drain_report report;
  keys_.for_each([&](std::string_view key, key_state& ks) {
    if (!ks.work) return;
    auto& work = *ks.work;
    if (work.at == phase::held) --held_keys_;
    const uint64_t failed = 1 + (work.chaser ? 1 : 0) + (work.next ? 1 : 0);
    report.failed += failed;
    counters_.failure += failed;
    resolve(work.head);
    if (work.chaser) resolve(work.chaser->value);
    if (work.next) resolve(*work.next);
    ks.work.reset();
    report.failed_keys.emplace_back(key);
  });
  counters_.in_flight = counters_.waiting_retry = 0;
  held_.clear();
  return report;
}

void coalescing_table::hold() { holding_ = true; }

void coalescing_table::release(int64_t now_ns) {
  last_now_ns_ = now_ns;
  holding_ = false;
  for (const std::string& key : std::exchange(held_, {})) {
    key_state* ks = find_work(key, phase::held);
    if (!ks) continue;  // resolved meanwhile
    --held_keys_;
    if (prepare_held_send(key, *ks)) hand_on(key, *ks->work, last_now_ns_);
  }
}

size_t coalescing_table::expire_held(int64_t now_ns, int64_t attempt_timeout_ns) {
  last_now_ns_ = now_ns;
  if (held_keys_ == 0) return 0;
  size_t expired = 0;
  // Expiring may start the next attempt of a key, held again: it joins held_ while this loop runs.
  std::vector<std::string> current = std::exchange(held_, {});
  for (std::string& key : current) {
    key_state* ks = find_work(key, phase::held);
    if (!ks) continue;
    auto& work = *ks->work;
    if (now_ns - work.attempt_started_ns < attempt_timeout_ns) {
      held_.push_back(std::move(key));
      continue;
    }
    --held_keys_;
    ++expired;
    attempt_failed(key, *ks, attempt_report{.key = key, .send_id = work.send_id, .end = attempt_end::held_too_long});
  }
  return expired;
}

std::vector<outgoing_record> coalescing_table::take_sends() { return std::exchange(sends_, {}); }

std::vector<retry_request> coalescing_table::take_retries() { return std::exchange(retries_, {}); }

const store_counters& coalescing_table::counters() {
  counters_.pending = unresolved_.size();
  counters_.held = held_keys_;
  counters_.oldest_unacked_since_ns = unresolved_.empty() ? -1 : unresolved_.begin()->second;
  return counters_;
}

}  // namespace status_store
