// Bump-pointer arena that owns every IR node of one ir::Context.
//
// Why an arena: IR nodes are immutable once built and are shared freely between
// program versions (a pass rebuilds only what it changes). Owning them all in one
// arena makes that sharing free of reference counting, gives cache-friendly
// allocation for million-node programs, and frees everything at once when the
// context dies. Invariant: a node never outlives its arena; passes keep results in
// the same context as their input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace pypto {

class Arena {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() {
    // Reverse order of construction.
    for (size_t c = dtor_chunks_.size(); c-- > 0;) {
      size_t n = c + 1 == dtor_chunks_.size() ? dtor_used_ : kDtorChunk;
      for (size_t i = n; i-- > 0;) dtor_chunks_[c][i].fn(dtor_chunks_[c][i].obj);
    }
  }

  // Constructs a T in the arena. Non-trivially-destructible objects get their
  // destructor run when the arena dies.
  template <typename T, typename... Args>
  T* New(Args&&... args) {
    void* mem = Allocate(sizeof(T), alignof(T));
    T* obj = new (mem) T(std::forward<Args>(args)...);
    if constexpr (!std::is_trivially_destructible_v<T>) {
      AddDtor(obj, [](void* p) { static_cast<T*>(p)->~T(); });
    }
    return obj;
  }

  // Like New, but records T's destructor only when `needs_dtor(*obj)` holds:
  // for objects whose destructor does nothing in some states (a std::string
  // holding a short name in place frees nothing), so a million such nodes do
  // not cost a million destructor records. Skipping a destructor without side
  // effects is well-defined; the predicate must be exact about that.
  template <typename T, typename Pred, typename... Args>
  T* NewDtorIf(Pred needs_dtor, Args&&... args) {
    void* mem = Allocate(sizeof(T), alignof(T));
    T* obj = new (mem) T(std::forward<Args>(args)...);
    if constexpr (!std::is_trivially_destructible_v<T>) {
      if (needs_dtor(*obj)) AddDtor(obj, [](void* p) { static_cast<T*>(p)->~T(); });
    }
    return obj;
  }

  void* Allocate(size_t size, size_t align) {
    uintptr_t p = (reinterpret_cast<uintptr_t>(cur_) + align - 1) & ~(uintptr_t(align) - 1);
    if (cur_ == nullptr || p + size > reinterpret_cast<uintptr_t>(end_)) {
      size_t block = size + align > kBlockSize ? size + align : kBlockSize;
      blocks_.emplace_back(new char[block]);
      cur_ = blocks_.back().get();
      end_ = cur_ + block;
      p = (reinterpret_cast<uintptr_t>(cur_) + align - 1) & ~(uintptr_t(align) - 1);
    }
    cur_ = reinterpret_cast<char*>(p + size);
    bytes_ += size;
    return reinterpret_cast<void*>(p);
  }

  size_t BytesAllocated() const { return bytes_; }

 private:
  static constexpr size_t kBlockSize = 64 * 1024;
  struct Dtor {
    void* obj;
    void (*fn)(void*);
  };
  // Destructor records live in fixed-size chunks rather than one growing
  // vector: a million-node context never copies the list, nor holds an old
  // and a new copy at once (which showed up as peak memory).
  static constexpr size_t kDtorChunk = 4096;
  void AddDtor(void* obj, void (*fn)(void*)) {
    if (dtor_chunks_.empty() || dtor_used_ == kDtorChunk) {
      dtor_chunks_.emplace_back(new Dtor[kDtorChunk]);
      dtor_used_ = 0;
    }
    dtor_chunks_.back()[dtor_used_++] = {obj, fn};
  }
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::vector<std::unique_ptr<Dtor[]>> dtor_chunks_;
  size_t dtor_used_ = 0;
  char* cur_ = nullptr;
  char* end_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace pypto
