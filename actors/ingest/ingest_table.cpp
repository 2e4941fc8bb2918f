#include "actors/ingest/ingest_table.hpp"

#include <algorithm>
#include <iterator>

namespace status_store {

ingest_table::offer_result ingest_table::insert_locked(status_update&& update) {
  std::string key = std::move(update.key);
  auto [it, inserted] = waiting_.try_emplace(std::move(key));
  if (!inserted) ++replaced_;
  it->second.update = std::move(update);
  return mark_put_locked(it->second);
}

ingest_table::offer_result ingest_table::refuse_locked(uint64_t updates) {
  refused_ += updates;
  return offer_result::refused;
}

ingest_table::offer_result ingest_table::mark_put_locked(entry& e) {
  e.put_seq = ++last_put_seq_;
  if (wake_outstanding_) return offer_result::waiting;
  wake_outstanding_ = true;
  return offer_result::wake_needed;
}

ingest_table::offer_result ingest_table::offer_copy(const status_update& update) {
  std::lock_guard lock{mutex_};
  if (closed_) return refuse_locked(1);
  auto [it, inserted] = waiting_.try_emplace(update.key);
  if (!inserted) ++replaced_;
  // Field by field: the key lives in the map only, and assign() keeps each string's capacity.
  status_update& waiting = it->second.update;
  waiting.tombstone = update.tombstone;
  waiting.value.assign(update.value);
  waiting.safe = update.safe;
  waiting.worker_id.assign(update.worker_id);
  waiting.generation = update.generation;
  waiting.put_ns = update.put_ns;
  return mark_put_locked(it->second);
}

ingest_table::offer_result ingest_table::offer(status_update update) {
  std::lock_guard lock{mutex_};
  if (closed_) return refuse_locked(1);
  return insert_locked(std::move(update));
}

ingest_table::offer_result ingest_table::offer_all(std::vector<status_update> updates) {
  std::lock_guard lock{mutex_};
  if (closed_) return refuse_locked(updates.size());
  auto result = offer_result::waiting;
  for (auto& u : updates)
    if (insert_locked(std::move(u)) == offer_result::wake_needed) result = offer_result::wake_needed;
  return result;
}

void ingest_table::append_in_put_order(table& taken, std::vector<status_update>& out) {
  std::vector<std::pair<uint64_t, status_update>> ordered;
  ordered.reserve(taken.size());
  while (!taken.empty()) {
    auto node = taken.extract(taken.begin());
    node.mapped().update.key = std::move(node.key());
    ordered.emplace_back(node.mapped().put_seq, std::move(node.mapped().update));
  }
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  out.reserve(out.size() + ordered.size());
  for (auto& [seq, u] : ordered) out.push_back(std::move(u));
}

ingest_table::batch ingest_table::take(size_t max, bool by_wake_up) {
  max = std::max<size_t>(max, 1);
  batch out;
  table taken;
  bool ended = false;  // this take ends the outstanding wake-up
  {
    std::lock_guard lock{mutex_};
    out.replaced = std::exchange(replaced_, 0);
    const size_t left = backlog_.size() - backlog_next_;  // the backlog is the taker's alone
    if (left < max) {
      taken.swap(waiting_);  // O(1) under the lock, whatever the table holds
      ended = by_wake_up && left + taken.size() <= max;
      if (ended) wake_outstanding_ = false;
    }
  }
  if (backlog_next_ == backlog_.size() && taken.size() <= max) {
    append_in_put_order(taken, out.updates);  // the common case: no storm
  } else {
    // A storm larger than a batch: sorted once, here, and handed out batch by batch from the backlog,
    // oldest first, so that callers never wait for it (docs/architecture.md, "The ingest").
    append_in_put_order(taken, backlog_);
    const size_t n = std::min(max, backlog_.size() - backlog_next_);
    const auto first = backlog_.begin() + static_cast<std::ptrdiff_t>(backlog_next_);
    out.updates.assign(std::make_move_iterator(first), std::make_move_iterator(first + static_cast<std::ptrdiff_t>(n)));
    backlog_next_ += n;
    if (backlog_next_ == backlog_.size()) {
      backlog_next_ = 0;
      std::vector<status_update>{}.swap(backlog_);  // a storm's space is given back with it
    }
  }
  const size_t left = backlog_.size() - backlog_next_;
  {
    std::lock_guard lock{mutex_};
    backlog_waiting_ = left;
    taken_ += out.updates.size() + out.replaced;
  }
  // A wake-up not ended here goes on (the coalescer takes again) until a take ends it.
  out.more = by_wake_up ? !ended : left > 0;
  return out;
}

void ingest_table::close() {
  std::lock_guard lock{mutex_};
  closed_ = true;
}

size_t ingest_table::waiting() const {
  std::lock_guard lock{mutex_};
  return waiting_.size() + backlog_waiting_;
}

uint64_t ingest_table::refused() const {
  std::lock_guard lock{mutex_};
  return refused_;
}

uint64_t ingest_table::taken() const {
  std::lock_guard lock{mutex_};
  return taken_;
}

}  // namespace status_store
