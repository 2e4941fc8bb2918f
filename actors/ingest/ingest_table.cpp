#include "actors/ingest/ingest_table.hpp"

#include <algorithm>
#include <iterator>

namespace status_store {

/// The key's entry: the one waiting, else a kept one (its strings' capacity reused), else a new one.
std::pair<ingest_table::table::iterator, bool> ingest_table::entry_for_locked(const std::string& key) {
  if (auto it = waiting_.find(key); it != waiting_.end()) return {it, false};
  if (kept_.empty()) return {waiting_.try_emplace(key).first, true};
  auto node = std::move(kept_.back());
  kept_.pop_back();
  node.key().assign(key);
  return {waiting_.insert(std::move(node)).position, true};
}

ingest_table::offer_result ingest_table::insert_locked(status_update&& update) {
  auto [it, inserted] = entry_for_locked(update.key);
  if (!inserted) ++replaced_;
  const std::string key = std::move(update.key);  // the key lives in the map only
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

ingest_table::offer_result ingest_table::copy_locked(const status_update& update) {
  auto [it, inserted] = entry_for_locked(update.key);
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

ingest_table::offer_result ingest_table::offer_copy(const status_update& update) {
  std::lock_guard lock{mutex_};
  if (closed_) return refuse_locked(1);
  return copy_locked(update);
}

ingest_table::offer_result ingest_table::offer_copies(std::span<const status_update> updates) {
  std::lock_guard lock{mutex_};
  if (closed_) return refuse_locked(updates.size());
  auto result = offer_result::waiting;
  for (const auto& u : updates)
    if (copy_locked(u) == offer_result::wake_needed) result = offer_result::wake_needed;
  return result;
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

/// Empties `taken` into `out` in put order, copying each update so that its entry keeps its strings'
/// capacity for a later put; the entries go to returned_, up to kept_entries (the rest are freed).
void ingest_table::append_in_put_order(table& taken, std::vector<status_update>& out) {
  order_.clear();
  order_.reserve(taken.size());
  while (!taken.empty()) {
    auto node = taken.extract(taken.begin());
    const uint64_t seq = node.mapped().put_seq;
    order_.emplace_back(seq, std::move(node));
  }
  std::sort(order_.begin(), order_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  out.reserve(out.size() + order_.size());
  for (auto& [seq, node] : order_) {
    out.push_back(node.mapped().update);
    out.back().key = node.key();
    if (returned_.size() < kept_entries) returned_.push_back(std::move(node));
  }
  order_.clear();
  if (order_.capacity() > kept_entries) decltype(order_){}.swap(order_);  // a storm's space goes with it
  if (taken.bucket_count() > 4 * kept_entries) table{}.swap(taken);       // and so do its buckets
}

/// The taken entries become the callers' kept ones when there are more of them: a swap, under the lock.
void ingest_table::keep_taken_locked() {
  if (kept_.size() < returned_.size()) kept_.swap(returned_);
}

ingest_table::batch ingest_table::take(size_t max, bool by_wake_up) {
  max = std::max<size_t>(max, 1);
  batch out;
  table& taken = taken_table_;  // empty, its buckets kept from the last take
  bool ended = false;           // this take ends the outstanding wake-up
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
    keep_taken_locked();
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
