#pragma once
// A hash-map key that costs one pointer: the size and the bytes live in one heap block. A worker may
// track a million status keys; std::string would add 24 bytes and a cached hash per map node
// (docs/benchmarks.md, "memory per key"). Immutable, move-only, looked up by std::string_view.
#include <cstdint>
#include <cstring>
#include <functional>
#include <string_view>
#include <utility>

namespace status_store {

class compact_key {
 public:
  explicit compact_key(std::string_view text) : block_{new char[sizeof(uint32_t) + text.size()]} {
    const auto size = static_cast<uint32_t>(text.size());
    std::memcpy(block_, &size, sizeof size);
    if (!text.empty()) std::memcpy(block_ + sizeof size, text.data(), text.size());
  }
  compact_key(compact_key&& other) noexcept : block_{std::exchange(other.block_, nullptr)} {}
  compact_key& operator=(compact_key&& other) noexcept {
    std::swap(block_, other.block_);
    return *this;
  }
  compact_key(const compact_key&) = delete;
  compact_key& operator=(const compact_key&) = delete;
  ~compact_key() { delete[] block_; }

  std::string_view view() const noexcept {
    if (block_ == nullptr) return {};  // moved from
    uint32_t size = 0;
    std::memcpy(&size, block_, sizeof size);
    return {block_ + sizeof size, size};
  }

 private:
  char* block_;
};

/// Transparent hash and equality, so maps of compact_key are searched with a std::string_view and no
/// allocation. noexcept and cheap: libstdc++ then keeps no cached hash in the node.
struct compact_key_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
  std::size_t operator()(const compact_key& key) const noexcept { return (*this)(key.view()); }
};

struct compact_key_equal {
  using is_transparent = void;
  static std::string_view view(std::string_view text) noexcept { return text; }
  static std::string_view view(const compact_key& key) noexcept { return key.view(); }
  template <class A, class B>
  bool operator()(const A& a, const B& b) const noexcept {
    return view(a) == view(b);
  }
};

}  // namespace status_store
