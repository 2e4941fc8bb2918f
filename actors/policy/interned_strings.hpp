#pragma once
// A pool of distinct strings named by 32-bit indices: the status view keeps each status's worker id
// and plugin version as an index into one, because a cluster has a handful of workers and plugin
// versions and may have a million statuses. Index 0 is reserved for "none". Owned by one actor;
// not thread-safe.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace status_store {

class interned_strings {
 public:
  static constexpr uint32_t none = 0;

  interned_strings() { strings_.emplace_back(); }      // index 0: none
  interned_strings(const interned_strings&) = delete;  // indices_ points into strings_
  interned_strings& operator=(const interned_strings&) = delete;

  /// The index of `text`, adding it on first sight.
  uint32_t intern(std::string&& text) {
    if (auto it = indices_.find(text); it != indices_.end()) return it->second;
    const auto index = static_cast<uint32_t>(strings_.size());
    strings_.push_back(std::move(text));  // a deque never moves its elements: the views stay valid
    indices_.emplace(strings_.back(), index);
    return index;
  }

  /// The string of an index `intern` returned ("" for none).
  const std::string& at(uint32_t index) const { return strings_[index]; }

 private:
  std::deque<std::string> strings_;
  std::unordered_map<std::string_view, uint32_t> indices_;
};

}  // namespace status_store
