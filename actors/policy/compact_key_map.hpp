#pragma once
// A hash map from a string key to V for tables of up to a million keys looked up at 100,000/s: open
// addressing with linear probing over 16-byte slots {the key's full hash, one heap block holding V
// and the key's bytes}. A lookup touches the slot array and one block, where std::unordered_map of
// compact_key touches a bucket, a node and the key's block: dependent cache misses that were the
// coalescer's largest cost (docs/benchmarks.md, "The coalescer's keys in open addressing"). Values never move once
// inserted (a V* stays valid until its key is erased); erasing shifts later slots back, no tombstones.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <string_view>
#include <utility>
#include <vector>

namespace status_store {

template <class V>
class compact_key_map {
 public:
  compact_key_map() = default;
  compact_key_map(const compact_key_map&) = delete;
  compact_key_map& operator=(const compact_key_map&) = delete;
  compact_key_map(compact_key_map&& other) noexcept
      : slots_{std::exchange(other.slots_, {})}, size_{std::exchange(other.size_, 0)} {}
  compact_key_map& operator=(compact_key_map&& other) noexcept {
    if (this != &other) {
      clear();
      slots_ = std::exchange(other.slots_, {});
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~compact_key_map() { clear(); }

  size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

  /// The value of `key`, or nullptr.
  V* find(std::string_view key) noexcept {
    if (slots_.empty()) return nullptr;
    const size_t hash = hash_of(key);
    for (size_t i = hash & mask();; i = (i + 1) & mask()) {
      const slot& s = slots_[i];
      if (s.block == nullptr) return nullptr;
      if (s.hash == hash && key_of(s.block) == key) return value_of(s.block);
    }
  }
  const V* find(std::string_view key) const noexcept { return const_cast<compact_key_map*>(this)->find(key); }

  /// The value of `key`, default-constructed first if absent; `second` is true if it was inserted.
  std::pair<V*, bool> try_emplace(std::string_view key) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    const size_t hash = hash_of(key);
    size_t i = hash & mask();
    for (; slots_[i].block != nullptr; i = (i + 1) & mask()) {
      if (slots_[i].hash == hash && key_of(slots_[i].block) == key) return {value_of(slots_[i].block), false};
    }
    slots_[i] = slot{hash, make_block(key)};
    ++size_;
    return {value_of(slots_[i].block), true};
  }

  /// Removes `key`; returns whether it was there.
  bool erase(std::string_view key) noexcept {
    if (slots_.empty()) return false;
    const size_t hash = hash_of(key);
    size_t i = hash & mask();
    for (;; i = (i + 1) & mask()) {
      if (slots_[i].block == nullptr) return false;
      if (slots_[i].hash == hash && key_of(slots_[i].block) == key) break;
    }
    destroy_block(slots_[i].block);
    // Backward shift: a later slot of the same probe run moves into the hole unless its home lies
    // (cyclically) after the hole, so every key stays reachable from its home without tombstones.
    for (size_t j = (i + 1) & mask(); slots_[j].block != nullptr; j = (j + 1) & mask()) {
      const size_t home = slots_[j].hash & mask();
      const bool home_in_hole_to_j = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (home_in_hole_to_j) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i] = slot{};
    --size_;
    return true;
  }

  /// Calls `f(std::string_view key, V& value)` for every entry, in no particular order. `f` must not
  /// insert or erase.
  template <class F>
  void for_each(F&& f) {
    for (const slot& s : slots_)
      if (s.block != nullptr) f(key_of(s.block), *value_of(s.block));
  }

  void clear() noexcept {
    for (slot& s : slots_)
      if (s.block != nullptr) destroy_block(std::exchange(s.block, nullptr));
    size_ = 0;
  }

 private:
  struct slot {
    size_t hash = 0;
    std::byte* block = nullptr;  // nullptr: empty
  };

  // A block: V at offset 0, then the key's size (uint32_t), then its bytes. Allocated by operator new,
  // which aligns for any V of fundamental alignment.
  static_assert(alignof(V) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "over-aligned values are not supported");
  static constexpr size_t size_offset = (sizeof(V) + alignof(uint32_t) - 1) / alignof(uint32_t) * alignof(uint32_t);
  static constexpr size_t bytes_offset = size_offset + sizeof(uint32_t);

  static size_t hash_of(std::string_view key) noexcept { return std::hash<std::string_view>{}(key); }
  static V* value_of(std::byte* block) noexcept { return std::launder(reinterpret_cast<V*>(block)); }
  static std::string_view key_of(const std::byte* block) noexcept {
    uint32_t size = 0;
    std::memcpy(&size, block + size_offset, sizeof size);
    return {reinterpret_cast<const char*>(block + bytes_offset), size};
  }
  static std::byte* make_block(std::string_view key) {
    auto* block = static_cast<std::byte*>(::operator new(bytes_offset + key.size()));
    try {
      ::new (block) V();
    } catch (...) {
      ::operator delete(block);
      throw;
    }
    const auto size = static_cast<uint32_t>(key.size());
    std::memcpy(block + size_offset, &size, sizeof size);
    if (!key.empty()) std::memcpy(block + bytes_offset, key.data(), key.size());
    return block;
  }
  static void destroy_block(std::byte* block) noexcept {
    value_of(block)->~V();
    ::operator delete(block);
  }

  size_t mask() const noexcept { return slots_.size() - 1; }

  /// Doubles the slot array (16 at first); entries move by their stored hash, blocks stay put.
  void grow() {
    const size_t capacity = slots_.empty() ? 16 : slots_.size() * 2;
    std::vector<slot> old = std::exchange(slots_, std::vector<slot>(capacity));
    for (const slot& s : old) {
      if (s.block == nullptr) continue;
      size_t i = s.hash & mask();
      while (slots_[i].block != nullptr) i = (i + 1) & mask();
      slots_[i] = s;
    }
  }

  std::vector<slot> slots_;  // a power of two in size, at most 3/4 full
  size_t size_ = 0;
};

}  // namespace status_store
