// StringViewSet: an open-addressing hash set of std::string_views, for
// "is this name taken?" questions asked once per IR variable (the printer's
// unique-name table). The views are not owned: the caller keeps the text alive
// (e.g. in a std::deque<std::string>, whose elements never move) for as long
// as the set is used. One flat array, linear probing, load <= 1/2; no per-entry
// allocation, unlike std::unordered_set<std::string>. Only for membership:
// there is no iteration, so it can never make output order depend on hashing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace pypto {

class StringViewSet {
 public:
  bool Contains(std::string_view s) const {
    if (slots_.empty()) return false;
    for (size_t i = Home(s);; i = (i + 1) & mask_) {
      if (!slots_[i].used) return false;
      if (slots_[i].text == s) return true;
    }
  }

  // Adds `s` (the caller keeps its text alive); false when already present.
  bool Insert(std::string_view s) {
    if (2 * (size_ + 1) > slots_.size()) Rehash(slots_.empty() ? 16 : slots_.size() * 2);
    for (size_t i = Home(s);; i = (i + 1) & mask_) {
      if (!slots_[i].used) {
        slots_[i] = {s, true};
        ++size_;
        return true;
      }
      if (slots_[i].text == s) return false;
    }
  }

  size_t size() const { return size_; }

  // Makes room for `n` entries without growing.
  void Reserve(size_t n) {
    size_t cap = 16;
    while (cap < 2 * n) cap <<= 1;
    if (cap > slots_.size()) Rehash(cap);
  }

 private:
  struct Slot {
    std::string_view text;
    bool used = false;
  };

  // FNV-1a, then a multiply so the high bits pick the slot.
  size_t Home(std::string_view s) const {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
    return static_cast<size_t>((h * 0x9e3779b97f4a7c15ULL) >> shift_);
  }

  void Rehash(size_t cap) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(cap, Slot{});
    mask_ = cap - 1;
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(cap));
    size_ = 0;
    for (const Slot& s : old)
      if (s.used) Insert(s.text);
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  unsigned shift_ = 64;
  size_t size_ = 0;
};

}  // namespace pypto
