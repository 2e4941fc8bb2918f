// The store's writes: put*, put_all and flush. A put never blocks: it is encoded on the caller's
// thread and offered to the ingest table, whose first update after an idle spell wakes the coalescer.
#include "app/store/request_or_throw.hpp"
#include "app/store/store.hpp"

#include "actors/ingest/ingest_table.hpp"
#include "config/logging.hpp"
#include "messages/status_updates.hpp"

#include "caf/send.hpp"

namespace status_store {

namespace {
// CAF 0.17's actor clock is steady_clock, so the coalescer can compare this with its own now().
int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// What a caller does after offering updates to the ingest table: wake the coalescer when the table
/// was idle; log a refusal (the store is stopping) once.
void after_offer(ingest_table::offer_result result, const caf::actor& wake_target, std::atomic<bool>& refused_logged) {
  if (result == ingest_table::offer_result::wake_needed) {
    caf::anon_send(wake_target, wake_atom::value);
  } else if (result == ingest_table::offer_result::refused && !refused_logged.exchange(true)) {
    component_logger("store")->warn(
        "refusing status updates: the store is stopping or stopped (each is counted in "
        "status-update-after-stop-total)");
  }
}
}  // namespace

void store::send(status_update update) {
  update.put_ns = steady_now_ns();
  after_offer(ingest_->offer(std::move(update)), wake_target_, refused_logged_);
}

namespace {

/// make_update of a status whose trace is over the budget, with the trace cut to it: rare, so the
/// status is copied and a warning says what was cut.
template <class Status>
status_update update_with_trace_cut(const Status& s, bool safe, int32_t trace_max_bytes) {
  const auto budget = static_cast<std::size_t>(trace_max_bytes);
  Status cut = s;
  const std::size_t original = fit_trace(cut.value, budget).value_or(0);
  status_update update = make_update(cut, safe);
  component_logger("store")->warn(
      "{}: trace of {} bytes cut to {} (status.storage.trace.max.bytes={}, head and tail kept) so that the {} "
      "status is written; Connect would send it whole and lose it if the broker refused the record as too large",
      update.key, original, cut.value.trace->size(), budget, to_string(cut.value.state));
  return update;
}

/// The update a put of `s` hands over, written into `u`: filled in place (its strings' capacity
/// reused), or, for a trace over the budget, the cut update with its warning.
template <class Status>
void fill_for_put(status_update& u, const Status& s, bool safe, int32_t trace_max_bytes) {
  if (s.value.trace && s.value.trace->size() > static_cast<std::size_t>(trace_max_bytes))
    u = update_with_trace_cut(s, safe, trace_max_bytes);
  else
    fill_update(u, s, safe);
}

}  // namespace

/// The update is encoded into this thread's buffer and copied into the ingest table's entry for the
/// key, so neither the encoding nor replacing a waiting update allocates once the buffers have grown
/// (docs/architecture.md, "The ingest"). A trace over budget takes the slow path, with its warning.
template <class Status>
void store::put_status(const Status& s, bool safe) {
  thread_local status_update buffer;
  fill_for_put(buffer, s, safe, config_.trace_max_bytes);
  buffer.put_ns = steady_now_ns();
  after_offer(ingest_->offer_copy(buffer), wake_target_, refused_logged_);
}

void store::put(const connector_status& s) { put_status(s, false); }
void store::put_safe(const connector_status& s) { put_status(s, true); }
void store::put(const task_status& s) { put_status(s, false); }
void store::put_safe(const task_status& s) { put_status(s, true); }
void store::put(const topic_status& s) { send(make_update(s)); }
void store::delete_topic(const std::string& connector, const std::string& topic) {
  send(make_topic_deletion(connector, topic));
}

void store::put_all(std::vector<status_update> updates) {
  if (updates.empty()) return;
  const int64_t now = steady_now_ns();
  for (auto& u : updates) u.put_ns = now;
  after_offer(ingest_->offer_all(std::move(updates)), wake_target_, refused_logged_);
}

/// Each chunk is filled into this thread's batch (the strings' capacity reused) and copied into the
/// ingest table's entries under one lock; the chunk bounds what the batch keeps and how long a caller
/// holds the lock.
template <class Status>
void store::put_all_statuses(std::span<const Status> statuses) {
  thread_local std::vector<status_update> batch(put_all_chunk);
  while (!statuses.empty()) {
    const auto chunk = statuses.first(std::min(statuses.size(), put_all_chunk));
    statuses = statuses.subspan(chunk.size());
    const int64_t now = steady_now_ns();
    for (std::size_t i = 0; i < chunk.size(); ++i) {
      fill_for_put(batch[i], chunk[i], false, config_.trace_max_bytes);
      batch[i].put_ns = now;
    }
    after_offer(ingest_->offer_copies(std::span<const status_update>{batch.data(), chunk.size()}), wake_target_,
                refused_logged_);
  }
}

void store::put_all(std::span<const connector_status> statuses) { put_all_statuses(statuses); }
void store::put_all(std::span<const task_status> statuses) { put_all_statuses(statuses); }

bool store::flush(std::chrono::milliseconds timeout) {
  try {
    request_or_throw<ok_atom>(*system_, current(coalescer_), request_timeout(timeout), "flush", flush_atom::value);
    return true;
  } catch (const store_error& e) {
    if (e.kind() == store_error_kind::timed_out) return false;  // flush's answer at its timeout, not an error
    throw;
  }
}

}  // namespace status_store
