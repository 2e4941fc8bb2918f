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

void coalescing_table::start_send(const std::string& key, key_state& ks) {
  ks.in_flight = true;
  ks.send_id = ++last_send_id_;
  ++counters_.in_flight;
  sends_.push_back(outgoing_record{key, ks.head->tombstone, ks.head->value, ks.send_id});
}

/// The head is resolved (acknowledged, failed or dropped): the waiting value, if any, goes next. A
/// waiting putSafe is a delayed call, so its rule is checked again against what is known now.
void coalescing_table::advance(const std::string& key, key_state& ks) {
  ks.head.reset();
  ks.retries_done = 0;
  if (!ks.next) return;
  ks.head = std::move(ks.next);
  if (ks.head->safe && !can_write_safely(ks, *ks.head)) {
    ++counters_.dropped_stale;
    log_->debug("waiting putSafe for key '{}' dropped: worker '{}' wrote generation {} meanwhile", key,
                *ks.known_worker, ks.known_generation);
    resolve(*ks.head);
    ks.head.reset();
    return;
  }
  start_send(key, ks);
}

void coalescing_table::fail_head(const std::string& key, key_state& ks, const delivery_result& report,
                                 std::string_view why) {
  ++counters_.failure;
  log_->error("status update for key '{}' failed after {} attempt(s): {} ({}); {}", key, ks.retries_done + 1,
              report.error_text, report.error, why);
  resolve(*ks.head);
  advance(key, ks);
}

void coalescing_table::accept(status_update& u, int64_t now_ns) {
  ++counters_.accepted;
  pending_update p{u.tombstone, std::move(u.value), u.safe, std::move(u.worker_id), u.generation, ++last_accept_seq_};
  unresolved_.emplace(p.accept_seq, u.put_ns > 0 ? u.put_ns : now_ns);
  auto& ks = keys_[u.key];
  if (p.safe && !can_write_safely(ks, p)) {
    ++counters_.dropped_stale;
    log_->debug("putSafe for key '{}' (worker '{}', generation {}) dropped: known value is from worker '{}' "
                "generation {}",
                u.key, p.worker_id, p.generation, *ks.known_worker, ks.known_generation);
    resolve(p);
    return;
  }
  if (!ks.head) {
    ks.head = std::make_unique<pending_update>(std::move(p));
    start_send(u.key, ks);
    return;
  }
  if (ks.next) {
    ++counters_.coalesced;
    resolve(*ks.next);
    *ks.next = std::move(p);  // reuse the allocation
    return;
  }
  ks.next = std::make_unique<pending_update>(std::move(p));
}

bool coalescing_table::delivered(const delivery_result& r, const delivery_verdict& verdict, int64_t now_ns) {
  auto it = keys_.find(r.key);
  // A report for a send we no longer wait for (e.g. after the drain deadline) changes nothing.
  if (it == keys_.end() || !it->second.in_flight || it->second.send_id != r.send_id) return false;
  auto& ks = it->second;
  ks.in_flight = false;
  --counters_.in_flight;
  switch (verdict.outcome) {
    case delivery_outcome::success:
      ++counters_.success;
      if (ks.head->tombstone)
        forget(ks);
      else if (!ks.head->worker_id.empty())  // connector and task statuses: our write is now known
        remember(ks, ks.head->worker_id, ks.head->generation, true);
      resolve_acknowledged(*ks.head, now_ns);
      advance(r.key, ks);
      return false;
    case delivery_outcome::non_retriable:
      if (verdict.authentication) ++counters_.authentication_failure;
      fail_head(r.key, ks, r,
                verdict.advice.empty() ? std::string{"not retriable"} : "not retriable: " + std::string{verdict.advice});
      return false;
    case delivery_outcome::retriable:
      if (ks.retries_done >= max_retries_) {
        fail_head(r.key, ks, r, "retries exhausted");
        return false;
      }
      ks.retry_scheduled = true;
      ks.retry_ticket = r.send_id;
      ++counters_.waiting_retry;
      retries_.push_back(retry_request{r.key, ks.retries_done, r.send_id});
      return true;
  }
  return false;
}

void coalescing_table::retry_due(const retry_request& due) {
  auto it = keys_.find(due.key);
  // A notice for a retry abandoned meanwhile (its key may be backing off again, for another send).
  if (it == keys_.end() || !it->second.retry_scheduled || it->second.retry_ticket != due.ticket) return;
  auto& ks = it->second;
  ks.retry_scheduled = false;
  --counters_.waiting_retry;
  ++ks.retries_done;
  if (ks.next) {  // the retry sends the latest value; the failed one is superseded
    ++counters_.coalesced;
    resolve(*ks.head);
    ks.head = std::move(ks.next);
  }
  // A retry is a delayed copy: re-check putSafe's rule against what the topic now shows, for plain
  // puts too. Another writer's record of another worker's newer generation means ownership moved on;
  // a record of our own (a send that timed out but was written, say) never does.
  if (!ks.known_own && !ks.head->worker_id.empty() && !can_write_safely(ks, *ks.head)) {
    ++counters_.dropped_stale;
    log_->debug("retry for key '{}' (worker '{}', generation {}) abandoned: worker '{}' wrote generation {}", due.key,
                ks.head->worker_id, ks.head->generation, *ks.known_worker, ks.known_generation);
    resolve(*ks.head);
    ks.head.reset();
    ks.retries_done = 0;
    return;
  }
  ++counters_.retry;
  start_send(due.key, ks);
}

/// Another writer's tombstone abandons a retry waiting for its backoff (as Connect does when the
/// entry is deleted): re-sending would resurrect the key. Our own records never abandon anything.
void coalescing_table::observed(const observed_status& o) {
  auto it = keys_.find(o.key);
  if (it == keys_.end()) {
    if (o.tombstone) return;  // nothing known, nothing to forget: no entry for deleted keys
    it = keys_.emplace(o.key, key_state{}).first;
  }
  auto& ks = it->second;
  if (!o.tombstone) {
    remember(ks, o.worker_id, o.generation, o.own);
    return;
  }
  forget(ks);
  if (o.own || !ks.retry_scheduled) return;
  ks.retry_scheduled = false;
  --counters_.waiting_retry;
  ++counters_.dropped_stale;
  log_->info("retry for key '{}' abandoned: another writer's tombstone for it was read back", o.key);
  resolve(*ks.head);
  advance(o.key, ks);
}

drain_report coalescing_table::fail_all_unresolved() {
  drain_report report;
  for (auto& [key, ks] : keys_) {
    bool failed = false;
    for (auto* u : {&ks.head, &ks.next}) {
      if (!*u) continue;
      ++report.failed;
      ++counters_.failure;
      resolve(**u);
      u->reset();
      failed = true;
    }
    if (failed) report.failed_keys.push_back(key);
    ks.in_flight = ks.retry_scheduled = false;
    ks.retries_done = 0;
  }
  counters_.in_flight = counters_.waiting_retry = 0;
  return report;
}

std::vector<outgoing_record> coalescing_table::take_sends() { return std::exchange(sends_, {}); }

std::vector<retry_request> coalescing_table::take_retries() { return std::exchange(retries_, {}); }

const store_counters& coalescing_table::counters() {
  counters_.pending = unresolved_.size();
  counters_.oldest_unacked_since_ns = unresolved_.empty() ? -1 : unresolved_.begin()->second;
  return counters_;
}

}  // namespace status_store
