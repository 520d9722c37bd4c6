// PtrMap: an open-addressing hash map keyed by pointers, for the per-node side
// tables of whole-program walks (the verifier's Var bindings, the printer's
// names). std::unordered_map allocates one node per entry and rehashes through
// pointer-chasing buckets; on million-node programs that dominated those walks.
// Here entries live in one flat array (linear probing, load <= 3/4), so an
// insert or lookup is a multiply hash and usually one cache line. The capacity
// need not be a power of two (the hash is mapped onto it by a 128-bit multiply),
// so Reserve(n) takes about 4n/3 slots: a caller that knows its entry count
// up front (the verifier counts bindings first) gets a table of that size and
// no growth, whose old and new arrays would briefly coexist. Keys must be non-null (null marks an
// empty slot). Erase uses backward-shift deletion, so there are no tombstones. References returned
// by Find/Insert are invalidated by the next insertion (the table may grow). Iteration order is
// unspecified: use it only for lookups, never to produce output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace pypto {

template <typename K, typename V>
class PtrMap {
  static_assert(std::is_pointer_v<K>, "PtrMap keys are pointers");

 public:
  PtrMap() = default;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Makes room for `n` entries without growing.
  void Reserve(size_t n) {
    size_t cap = n + n / 3 + 1;
    if (cap < 16) cap = 16;
    if (cap > slots_.size()) Rehash(cap);
  }

  void Clear() {
    if (size_ == 0) return;
    for (auto& s : slots_) s = Slot{};
    size_ = 0;
  }

  V* Find(K k) {
    if (slots_.empty()) return nullptr;
    for (size_t i = Home(k);; i = Next(i)) {
      if (slots_[i].key == k) return &slots_[i].value;
      if (slots_[i].key == nullptr) return nullptr;
    }
  }
  const V* Find(K k) const { return const_cast<PtrMap*>(this)->Find(k); }
  bool Contains(K k) const { return Find(k) != nullptr; }

  // The entry for `k`, default-constructed when new; second = inserted.
  std::pair<V*, bool> Insert(K k) {
    if (4 * (size_ + 1) > 3 * slots_.size()) Rehash(slots_.empty() ? 16 : slots_.size() * 2);
    for (size_t i = Home(k);; i = Next(i)) {
      if (slots_[i].key == k) return {&slots_[i].value, false};
      if (slots_[i].key == nullptr) {
        slots_[i].key = k;
        ++size_;
        return {&slots_[i].value, true};
      }
    }
  }

  // Removes `k` if present; true when it was.
  bool Erase(K k) {
    if (slots_.empty()) return false;
    size_t i = Home(k);
    for (;; i = Next(i)) {
      if (slots_[i].key == nullptr) return false;
      if (slots_[i].key == k) break;
    }
    // Backward-shift: move later entries of the probe run into the hole when
    // their home position is not between the hole and themselves.
    size_t hole = i;
    for (size_t j = Next(i); slots_[j].key != nullptr; j = Next(j)) {
      size_t home = Home(slots_[j].key);
      bool movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        slots_[hole] = std::move(slots_[j]);
        hole = j;
      }
    }
    slots_[hole] = Slot{};
    --size_;
    return true;
  }

 private:
  struct Slot {
    K key = nullptr;
    V value{};
  };

  // The hash scaled onto [0, capacity): the high half of hash * capacity.
  size_t Home(K k) const {
    uint64_t h = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(k)) * 0x9e3779b97f4a7c15ULL;
    return static_cast<size_t>((static_cast<unsigned __int128>(h) * slots_.size()) >> 64);
  }
  size_t Next(size_t i) const { return i + 1 == slots_.size() ? 0 : i + 1; }

  void Rehash(size_t cap) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(cap, Slot{});
    size_ = 0;
    for (Slot& s : old)
      if (s.key) *Insert(s.key).first = std::move(s.value);
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace pypto
