#include "actors/policy/coalescing_table.hpp"

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

/// resolve() for an acknowledged update: the same one lookup also yields its put-to-ack latency.
void coalescing_table::resolve_acknowledged(const pending_update& u, int64_t now_ns) {
  const auto accepted = unresolved_.find(u.accept_seq);
  if (accepted == unresolved_.end()) return;
  ack_latencies_us_.push_back(static_cast<uint64_t>(std::max<int64_t>(0, now_ns - accepted->second)) / 1000);
  unresolved_.erase(accepted);
}

namespace {
// The code the Kafka client gives an attempt that found no broker within message.timeout.ms
// (_MSG_TIMED_OUT); a held attempt that expires reports the same, so logs read alike.
constexpr int held_attempt_timed_out = -192;
}  // namespace

/// A new attempt: handed to the producer, or held while no broker is reachable.
void coalescing_table::start_send(std::string_view key, work_in_progress& work, int64_t now_ns) {
  work.attempt_started_ns = now_ns;
  if (holding_) {
    work.send_id = ++last_send_id_;
    hold_key(key, work);
    return;
  }
  hand_on(key, work);
}

/// The key's attempt waits in the table for a reachable broker.
void coalescing_table::hold_key(std::string_view key, work_in_progress& work) {
  work.in_flight = true;
  work.held = true;
  ++held_keys_;
  held_.emplace_back(key);
}

/// An attempt goes to the producer (a held one keeps its start time). now through the producer (its start time stays).
void coalescing_table::hand_on(std::string_view key, work_in_progress& work) {
  work.held = false;
  work.in_flight = true;
  work.send_id = ++last_send_id_;
  ++counters_.in_flight;
  sends_.push_back(outgoing_record{std::string{key}, work.head.tombstone, work.head.value, work.send_id});
}

/// A held attempt is about to go on (a broker is reachable again): the latest value replaces a held
/// one that never reached a broker, and the send, a delayed copy, is checked as a retry is. False if
/// nothing is left to send for the key.
bool coalescing_table::prepare_held_send(std::string_view key, key_state& ks) {
  auto& work = *ks.work;
  if (work.next) {
    ++counters_.coalesced;
    resolve(work.head);
    work.head = std::move(*work.next);
    work.next.reset();
    if (work.head.safe && !can_write_safely(ks, work.head)) {  // a waiting putSafe, decided now
      ++counters_.dropped_stale;
      log_->debug("held putSafe for key '{}' dropped: worker '{}' wrote generation {} meanwhile", key, *ks.known_worker,
                  ks.known_generation);
      resolve(work.head);
      ks.work.reset();
      return false;
    }
  }
  if (!ks.known_own && !work.head.worker_id.empty() && !can_write_safely(ks, work.head)) {
    ++counters_.dropped_stale;
    log_->debug("held update for key '{}' (worker '{}', generation {}) abandoned: worker '{}' wrote generation {}", key,
                work.head.worker_id, work.head.generation, *ks.known_worker, ks.known_generation);
    resolve(work.head);
    ks.work.reset();
    return false;
  }
  return true;
}

/// A retriable end of an attempt: a retry is scheduled, or the update fails once its retries are used.
bool coalescing_table::attempt_failed(std::string_view key, key_state& ks, const delivery_result& report) {
  auto& work = *ks.work;
  if (work.retries_done >= max_retries_) {
    fail_head(key, ks, report, "retries exhausted");
    return false;
  }
  work.retry_scheduled = true;
  work.retry_ticket = work.send_id;
  ++counters_.waiting_retry;
  retries_.push_back(retry_request{std::string{key}, work.retries_done, work.send_id});
  return true;
}

/// The head is resolved (acknowledged, failed or dropped): the waiting value, if any, goes next. A
/// waiting putSafe is a delayed call, so its rule is checked again against what is known now.
void coalescing_table::advance(std::string_view key, key_state& ks, int64_t now_ns) {
  auto& work = *ks.work;
  if (!work.next) {
    ks.work.reset();  // idle again
    return;
  }
  work.head = std::move(*work.next);
  work.next.reset();
  work.retries_done = 0;
  if (work.head.safe && !can_write_safely(ks, work.head)) {
    ++counters_.dropped_stale;
    log_->debug("waiting putSafe for key '{}' dropped: worker '{}' wrote generation {} meanwhile", key,
                *ks.known_worker, ks.known_generation);
    resolve(work.head);
    ks.work.reset();
    return;
  }
  start_send(key, work, now_ns);
}

void coalescing_table::fail_head(std::string_view key, key_state& ks, const delivery_result& report,
                                 std::string_view why) {
  ++counters_.failure;
  log_->error("status update for key '{}' failed after {} attempt(s): {} ({}); {}", key, ks.work->retries_done + 1,
              report.error_text, report.error, why);
  resolve(ks.work->head);
  advance(key, ks, last_now_ns_);
}

void coalescing_table::accept(status_update& u, int64_t now_ns) {
  last_now_ns_ = now_ns;
  ++counters_.accepted;
  pending_update p{u.tombstone, std::move(u.value), u.safe, std::move(u.worker_id), u.generation, ++last_accept_seq_};
  unresolved_.emplace(p.accept_seq, u.put_ns > 0 ? u.put_ns : now_ns);
  auto it = keys_.find(std::string_view{u.key});
  if (it == keys_.end()) it = keys_.emplace(compact_key{u.key}, key_state{}).first;
  auto& ks = it->second;
  if (p.safe && !can_write_safely(ks, p)) {
    ++counters_.dropped_stale;
    log_->debug(
        "putSafe for key '{}' (worker '{}', generation {}) dropped: known value is from worker '{}' "
        "generation {}",
        u.key, p.worker_id, p.generation, *ks.known_worker, ks.known_generation);
    resolve(p);
    return;
  }
  if (!ks.work) {
    ks.work = std::make_unique<work_in_progress>(work_in_progress{std::move(p), nullptr, 0, 0, 0, false, false});
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
  work.next = std::make_unique<pending_update>(std::move(p));
}

bool coalescing_table::delivered(const delivery_result& r, int64_t now_ns) {
  const delivery_verdict& verdict = r.verdict;
  last_now_ns_ = now_ns;
  auto it = keys_.find(std::string_view{r.key});
  // A report for a send we no longer wait for (e.g. after the drain deadline) changes nothing.
  if (it == keys_.end() || !it->second.work || !it->second.work->in_flight || it->second.work->held ||
      it->second.work->send_id != r.send_id)
    return false;
  auto& ks = it->second;
  auto& work = *ks.work;
  work.in_flight = false;
  --counters_.in_flight;
  switch (verdict.outcome) {
    case delivery_outcome::success:
      ++counters_.success;
      if (work.head.tombstone)
        forget(ks);
      else if (!work.head.worker_id.empty())  // connector and task statuses: our write is now known
        remember(ks, work.head.worker_id, work.head.generation, true);
      resolve_acknowledged(work.head, now_ns);
      advance(r.key, ks, now_ns);
      return false;
    case delivery_outcome::non_retriable:
      if (verdict.authentication) ++counters_.authentication_failure;
      fail_head(r.key, ks, r,
                verdict.advice.empty() ? std::string{"not retriable"} : "not retriable: " + verdict.advice);
      return false;
    case delivery_outcome::retriable:
      return attempt_failed(r.key, ks, r);
    case delivery_outcome::not_sent:
      // Taken back from the producer's queue by the outage hold: the attempt goes on, held here,
      // or through the producer again if a broker became reachable meanwhile.
      if (holding_) {
        hold_key(r.key, work);
      } else if (prepare_held_send(r.key, ks)) {
        hand_on(r.key, *ks.work);
      }
      return false;
  }
  return false;
}

void coalescing_table::retry_due(const retry_request& due, int64_t now_ns) {
  last_now_ns_ = now_ns;
  auto it = keys_.find(std::string_view{due.key});
  // A notice for a retry abandoned meanwhile (its key may be backing off again, for another send).
  if (it == keys_.end() || !it->second.work || !it->second.work->retry_scheduled ||
      it->second.work->retry_ticket != due.ticket)
    return;
  auto& ks = it->second;
  auto& work = *ks.work;
  work.retry_scheduled = false;
  --counters_.waiting_retry;
  ++work.retries_done;
  if (work.next) {  // the retry sends the latest value; the failed one is superseded
    ++counters_.coalesced;
    resolve(work.head);
    work.head = std::move(*work.next);
    work.next.reset();
  }
  // A retry is a delayed copy: re-check putSafe's rule against what the topic now shows, for plain
  // puts too. Another writer's record of another worker's newer generation means ownership moved on;
  // a record of our own (a send that timed out but was written, say) never does.
  if (!ks.known_own && !work.head.worker_id.empty() && !can_write_safely(ks, work.head)) {
    ++counters_.dropped_stale;
    log_->debug("retry for key '{}' (worker '{}', generation {}) abandoned: worker '{}' wrote generation {}", due.key,
                work.head.worker_id, work.head.generation, *ks.known_worker, ks.known_generation);
    resolve(work.head);
    ks.work.reset();
    return;
  }
  ++counters_.retry;
  start_send(due.key, work, now_ns);
}

/// Another writer's tombstone abandons a retry waiting for its backoff (as Connect does when the
/// entry is deleted): re-sending would resurrect the key. Our own records never abandon anything.
void coalescing_table::observed(const observed_status& o) {
  auto it = keys_.find(std::string_view{o.key});
  if (it == keys_.end()) {
    if (o.tombstone) return;  // nothing known, nothing to forget: no entry for deleted keys
    it = keys_.emplace(compact_key{o.key}, key_state{}).first;
  }
  auto& ks = it->second;
  if (!o.tombstone) {
    remember(ks, o.worker_id, o.generation, o.own);
    return;
  }
  forget(ks);
  if (o.own || !ks.work || !ks.work->retry_scheduled) return;
  ks.work->retry_scheduled = false;
  --counters_.waiting_retry;
  ++counters_.dropped_stale;
  log_->info("retry for key '{}' abandoned: another writer's tombstone for it was read back", o.key);
  resolve(ks.work->head);
  advance(o.key, ks, last_now_ns_);
}

drain_report coalescing_table::fail_all_unresolved() {
  drain_report report;
  for (auto& [key, ks] : keys_) {
    if (!ks.work) continue;
    if (ks.work->held) --held_keys_;
    report.failed += ks.work->next ? 2 : 1;
    counters_.failure += ks.work->next ? 2 : 1;
    resolve(ks.work->head);
    if (ks.work->next) resolve(*ks.work->next);
    ks.work.reset();
    report.failed_keys.emplace_back(key.view());
  }
  counters_.in_flight = counters_.waiting_retry = 0;
  held_.clear();
  return report;
}

void coalescing_table::hold() { holding_ = true; }

void coalescing_table::release() {
  holding_ = false;
  for (const std::string& key : std::exchange(held_, {})) {
    auto it = keys_.find(std::string_view{key});
    if (it == keys_.end() || !it->second.work || !it->second.work->held) continue;  // resolved meanwhile
    auto& ks = it->second;
    auto& work = *ks.work;
    --held_keys_;
    if (prepare_held_send(key, ks)) hand_on(key, work);
  }
}

size_t coalescing_table::expire_held(int64_t now_ns, int64_t attempt_timeout_ns) {
  last_now_ns_ = now_ns;
  if (held_keys_ == 0) return 0;
  size_t expired = 0;
  // Expiring may start the next attempt of a key, held again: it joins held_ while this loop runs.
  std::vector<std::string> current = std::exchange(held_, {});
  for (std::string& key : current) {
    auto it = keys_.find(std::string_view{key});
    if (it == keys_.end() || !it->second.work || !it->second.work->held) continue;
    auto& ks = it->second;
    auto& work = *ks.work;
    if (now_ns - work.attempt_started_ns < attempt_timeout_ns) {
      held_.push_back(std::move(key));
      continue;
    }
    work.held = false;
    work.in_flight = false;
    --held_keys_;
    ++expired;
    attempt_failed(key, ks,
                   delivery_result{key, work.send_id, held_attempt_timed_out, -1,
                                   "Local: Message timed out (held: no broker was reachable)",
                                   delivery_verdict{delivery_outcome::retriable, false, {}}});
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
