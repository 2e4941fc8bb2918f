// The per-key pipeline of the coalescing table: a second record of a key handed to the producer while
// the first is in flight (the chaser), and what each one's report then means. The rules are listed in
// coalescing_table.hpp and docs/architecture.md#the-per-key-rules.
#include "actors/policy/coalescing_table.hpp"

namespace status_store {

/// Whether `u` may be sent now, chasing the key's head: the head is with the producer, nothing else
/// chases it, a broker is reachable, and a putSafe's rule would still hold once the head is written.
bool coalescing_table::may_chase(const work_in_progress& work, const pending_update& u) const {
  if (holding_ || work.at != phase::sending || work.chaser) return false;
  const auto& head = work.head;
  return !u.safe || head.tombstone || head.worker_id.empty() || head.worker_id == u.worker_id ||
         head.generation <= u.generation;
}

void coalescing_table::send_chaser(std::string_view key, work_in_progress& work, pending_update&& u, int64_t now_ns) {
  work.chaser = std::make_unique<chaser_send>(chaser_send{std::move(u), ++last_send_id_, now_ns});
  ++counters_.in_flight;
  const auto& c = *work.chaser;
  sends_.push_back(outgoing_record{std::string{key}, c.value.tombstone, c.value.value, c.send_id});
}

/// The waiting value chases the head if it may (a waiting putSafe is checked again, as when it
/// becomes the head).
void coalescing_table::chase_waiting(std::string_view key, key_state& ks, int64_t now_ns) {
  auto& work = *ks.work;
  if (!work.next || !may_chase(work, *work.next)) return;
  std::unique_ptr<pending_update> waiting = std::move(work.next);
  if (waiting->safe && !can_write_safely(ks, *waiting)) {
    discard_stale(key, ks, *waiting, "waiting putSafe");
    return;
  }
  send_chaser(key, work, std::move(*waiting), now_ns);
}

/// The report of a head that a newer value has overtaken (it chases the head, or is written already):
/// a failed head is never re-sent, so it counts as coalesced, or as failed if no attempt could help.
void coalescing_table::overtaken_head_delivered(std::string_view key, key_state& ks, const attempt_report& report,
                                                int64_t now_ns) {
  auto& work = *ks.work;
  switch (report.end) {
    case attempt_end::acknowledged:
      count_acknowledged(key, ks, work.head, work.handed_on_ns, report, now_ns, !work.overtaken);
      break;
    case attempt_end::non_retriable:
      if (report.authentication) ++counters_.authentication_failure;
      count_failure(key, work.head, work.retries_done + 1, report, "not retriable");
      break;
    default:  // retriable, held too long, taken back: the newer value is the key's attempt now
      ++counters_.coalesced;
      resolve(work.head);
      break;
  }
  after_overtaken_head(key, ks, now_ns);
}

/// The overtaken head is resolved: the value chasing it, already with the producer, becomes the head
/// (a fresh attempt of its own), and the waiting value may chase it in turn.
void coalescing_table::after_overtaken_head(std::string_view key, key_state& ks, int64_t now_ns) {
  auto& work = *ks.work;
  work.overtaken = false;
  if (!work.chaser) {
    advance(key, ks, now_ns);
    return;
  }
  std::unique_ptr<chaser_send> c = std::move(work.chaser);
  work.head = std::move(c->value);
  work.send_id = c->send_id;
  work.handed_on_ns = work.attempt_started_ns = c->handed_on_ns;
  work.retries_done = 0;
  work.at = phase::sending;
  chase_waiting(key, ks, now_ns);
}

/// The report of the value chasing the head, before the head's own. Written: the head is overtaken.
/// Not written: it waits behind the head again (unless a newer value already waits), sent when the head
/// is resolved, so a failure is never re-sent at once.
void coalescing_table::chaser_delivered(std::string_view key, key_state& ks, const attempt_report& report,
                                        int64_t now_ns) {
  auto& work = *ks.work;
  std::unique_ptr<chaser_send> c = std::move(work.chaser);
  switch (report.end) {
    case attempt_end::acknowledged:
      count_acknowledged(key, ks, c->value, c->handed_on_ns, report, now_ns, true);
      work.overtaken = true;
      chase_waiting(key, ks, now_ns);
      break;
    case attempt_end::non_retriable:
      if (report.authentication) ++counters_.authentication_failure;
      count_failure(key, c->value, 1, report, "not retriable");
      break;
    default:
      if (work.next) {
        ++counters_.coalesced;
        resolve(c->value);
      } else {
        work.next = std::make_unique<pending_update>(std::move(c->value));
      }
      break;
  }
}

}  // namespace status_store
