#include "actors/policy/status_history.hpp"

#include <algorithm>
#include <vector>

namespace status_store {

std::string first_line_of(std::string_view trace, std::size_t max_bytes) {
  std::string_view line = trace.substr(0, std::min(trace.find_first_of("\r\n"), trace.size()));
  if (line.size() > max_bytes) {
    std::size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
    line = line.substr(0, cut);
  }
  return std::string{line};
}

namespace {
bool same_status(const status_transition& a, const status_transition& b) {
  return a.state == b.state && a.worker_id == b.worker_id && a.generation == b.generation;
}
}  // namespace

bool status_history::ring::push(entry&& e, std::size_t cap) {
  if (live_ < slots_.size()) {  // room left by an eviction
    slots_[(first_ + live_++) % slots_.size()] = std::move(e);
    return false;
  }
  if (slots_.size() < cap) {  // grow by one, oldest first in the vector
    std::rotate(slots_.begin(), slots_.begin() + static_cast<std::ptrdiff_t>(first_), slots_.end());
    first_ = 0;
    if (slots_.size() == slots_.capacity()) slots_.reserve(std::min(cap, std::max<std::size_t>(1, 2 * slots_.size())));
    slots_.push_back(std::move(e));
    ++live_;
    return false;
  }
  slots_[first_] = std::move(e);  // full: the newest takes the oldest's place
  first_ = (first_ + 1) % slots_.size();
  return true;
}

void status_history::ring::pop_front() {
  slots_[first_] = entry{};  // its strings go now, not when the slot is reused
  first_ = (first_ + 1) % slots_.size();
  --live_;
}

bool status_history::record(std::string_view key, status_transition t) {
  if (limits_.per_key == 0 || limits_.total == 0) return false;
  auto it = keys_.find(key);
  if (it == keys_.end()) it = keys_.try_emplace(compact_key{key}).first;
  auto& entries = it->second;
  if (!entries.empty() && same_status(entries.back().transition, t)) return false;
  if (!entries.push(entry{next_sequence_++, std::move(t)}, limits_.per_key)) ++total_;
  if (total_ > limits_.total) evict_oldest();
  return true;
}

void status_history::evict_oldest() {
  // Down to nine tenths of the cap: the oldest by sequence go, whichever key holds them.
  const std::size_t keep = limits_.total - limits_.total / 10;
  std::vector<uint64_t> sequences;
  sequences.reserve(total_);
  for (const auto& [key, entries] : keys_)
    for (std::size_t i = 0; i < entries.size(); ++i) sequences.push_back(entries.at(i).sequence);
  const auto first_kept = sequences.begin() + static_cast<std::ptrdiff_t>(total_ - keep);
  std::nth_element(sequences.begin(), first_kept, sequences.end());
  const uint64_t oldest_kept = *first_kept;
  for (auto it = keys_.begin(); it != keys_.end();) {
    auto& entries = it->second;
    while (!entries.empty() && entries.front().sequence < oldest_kept) {
      entries.pop_front();
      --total_;
    }
    it = entries.empty() ? keys_.erase(it) : std::next(it);
  }
}

void status_history::erase(std::string_view key) {
  const auto it = keys_.find(key);
  if (it == keys_.end()) return;
  total_ -= it->second.size();
  keys_.erase(it);
}

std::vector<status_transition> status_history::of(std::string_view key) const {
  std::vector<status_transition> out;
  if (const auto it = keys_.find(key); it != keys_.end())
    for (std::size_t i = 0; i < it->second.size(); ++i) out.push_back(it->second.at(i).transition);
  return out;
}

std::vector<key_change> status_history::last_changes() const {
  std::vector<key_change> out;
  out.reserve(keys_.size());
  for (const auto& [key, entries] : keys_)
    if (!entries.empty()) out.push_back({std::string{key.view()}, entries.back().transition.timestamp_ms});
  std::sort(out.begin(), out.end(), [](const key_change& a, const key_change& b) { return a.key < b.key; });
  return out;
}

std::optional<int64_t> status_history::reaches_back_to() const {
  std::optional<int64_t> oldest;
  for (const auto& [key, entries] : keys_)
    for (std::size_t i = 0; i < entries.size(); ++i)  // a writer's clock can go back: not only the front
      if (const int64_t ts = entries.at(i).transition.timestamp_ms; !oldest || ts < *oldest) oldest = ts;
  return oldest;
}

}  // namespace status_store
