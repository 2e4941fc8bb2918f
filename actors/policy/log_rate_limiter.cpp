#include "actors/policy/log_rate_limiter.hpp"

#include <algorithm>

namespace status_store {

log_rate_limiter::verdict log_rate_limiter::admit(std::string_view reason, int64_t now_ns) {
  auto it = windows_.find(reason);
  if (it == windows_.end()) {
    if (windows_.size() >= limits_.max_reasons) reason = "other";
    it = windows_.try_emplace(std::string{reason}, window{now_ns, 0, 0}).first;
  }
  verdict out;
  window& w = it->second;
  if (passed(w, now_ns)) {
    if (w.suppressed > 0) out.closed = summary{it->first, w.suppressed, now_ns - w.opened_ns};
    w = window{now_ns, 0, 0};
  }
  if (w.written < limits_.lines_per_interval) {
    ++w.written;
    out.write = true;
  } else {
    ++w.suppressed;
  }
  return out;
}

std::vector<log_rate_limiter::summary> log_rate_limiter::take_due(int64_t now_ns) {
  std::vector<std::pair<int64_t, summary>> due;
  for (auto it = windows_.begin(); it != windows_.end();) {
    if (!passed(it->second, now_ns)) {
      ++it;
      continue;
    }
    const window& w = it->second;
    if (w.suppressed > 0) due.emplace_back(w.opened_ns, summary{it->first, w.suppressed, now_ns - w.opened_ns});
    it = windows_.erase(it);
  }
  std::stable_sort(due.begin(), due.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<summary> out;
  out.reserve(due.size());
  for (auto& [opened, s] : due) out.push_back(std::move(s));
  return out;
}

std::optional<int64_t> log_rate_limiter::next_due() const {
  std::optional<int64_t> first;
  for (const auto& [reason, w] : windows_) {
    if (w.suppressed == 0) continue;
    const int64_t due = w.opened_ns + limits_.interval_ns;
    if (!first || due < *first) first = due;
  }
  return first;
}

}  // namespace status_store
