// Machine bookkeeping: allocations, domain inference, rendezvous, errors.
#include "pypto/sim/machine.h"

#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "pypto/sim/memory_limit.h"

namespace pypto::sim {

int Domain::RankOf(int device) const {
  for (size_t i = 0; i < devices.size(); ++i)
    if (devices[i] == device) return static_cast<int>(i);
  return -1;
}

std::string Domain::Describe() const {
  std::string s = "{";
  for (size_t i = 0; i < devices.size(); ++i) s += (i ? ", " : "") + std::to_string(devices[i]);
  return s + "}";
}

Machine::Machine(int ranks, bool poison_nan, int64_t memory_limit, Transport* transport)
    : ranks_(ranks),
      poison_nan_(poison_nan),
      memory_limit_(memory_limit),
      transport_(transport),
      stats_(static_cast<size_t>(ranks)) {}

namespace {

// Windows at least this large are anonymous mappings (lazily zeroed by the
// kernel); smaller ones come from the heap and are zeroed here.
constexpr size_t kMapThreshold = size_t{1} << 20;

void FreeWindow(uint8_t* p, size_t cap, bool mapped) {
  if (mapped)
    munmap(p, cap);
  else
    std::free(p);
}

}  // namespace

Machine::~Machine() {
  for (auto& a : allocs_) {
    if (transport_) {
      transport_->Free(a->id);  // collective: every process frees its windows in order
      continue;
    }
    for (uint8_t* p : a->mem) FreeWindow(p, a->capacity, a->mapped);
  }
}

int Machine::NewAllocation(const std::string& name, int64_t bytes, Span span) {
  std::lock_guard<std::mutex> l(mu);
  // Re-claimed at most once per run: an allocation site that runs twice in one
  // run (inside a loop) still gets two windows.
  if (persistent_)
    for (auto& a : allocs_)
      if (a->run != run_ && a->name == name && a->bytes == bytes && a->span.file == span.file &&
          a->span.line == span.line && a->span.col == span.col) {
        a->run = run_;
        return a->id;
      }
  // Rounded up to whole 64-byte lines (at least one); overflow-checked.
  int64_t cap64 = bytes <= 0 ? 64 : ((bytes - 1) / 64 + 1) * 64;
  int64_t all = 0, total = 0;
  bool overflow = __builtin_mul_overflow(cap64, int64_t{ranks_}, &all) ||
                  __builtin_add_overflow(window_bytes_, all, &total);
  if (overflow)
    throw SimError(span, fmt::format("window '{}' of {} on each of {} ranks: the run's window "
                                     "bytes would not fit in 64 bits",
                                     name, FormatBytes(bytes), ranks_));
  if (memory_limit_ > 0 && total > memory_limit_)
    throw SimError(span, fmt::format("window '{}' of {} on each of {} rank{} would bring this "
                                     "run's windows to {}; {}",
                                     name, FormatBytes(bytes), ranks_, ranks_ == 1 ? "" : "s",
                                     FormatBytes(total), MemoryLimitHint(memory_limit_)));
  auto a = std::make_unique<Allocation>();
  a->id = static_cast<int>(allocs_.size());
  a->name = name;
  a->bytes = bytes;
  a->span = span;
  a->run = run_;
  a->capacity = static_cast<size_t>(cap64);
  a->mapped = a->capacity >= kMapThreshold;
  if (transport_) {
    std::string err;
    uint8_t* p = transport_->Allocate(a->id, name, a->capacity,
                                      fmt::format("{}:{}", span.line, span.col), &err);
    if (!p) throw SimError(span, err);
    a->mapped = false;
    a->mem.assign(static_cast<size_t>(ranks_), nullptr);
    a->mem[static_cast<size_t>(transport_->local_rank())] = p;
  }
  for (int d = 0; d < ranks_ && !transport_; ++d) {
    uint8_t* p = nullptr;
    if (a->mapped) {
      void* m = mmap(nullptr, a->capacity, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      p = m == MAP_FAILED ? nullptr : static_cast<uint8_t*>(m);
    } else {
      p = static_cast<uint8_t*>(std::aligned_alloc(64, a->capacity));
      if (p) std::memset(p, 0, a->capacity);
    }
    if (!p) {
      int err = errno;
      for (uint8_t* q : a->mem) FreeWindow(q, a->capacity, a->mapped);
      throw SimError(span,
                     fmt::format("cannot allocate window '{}' of {} on rank {} of {}: {}", name,
                                 FormatBytes(bytes), d, ranks_, std::strerror(err ? err : ENOMEM)));
    }
    a->mem.push_back(p);
  }
  window_bytes_ = total;
  auto it = pending_explicit_.find(name);
  if (it != pending_explicit_.end()) a->explicit_devices = it->second;
  allocs_.push_back(std::move(a));
  return allocs_.back()->id;
}

void Machine::ZeroWindows() {
  std::lock_guard<std::mutex> l(mu);
  for (auto& a : allocs_)
    for (uint8_t* p : a->mem) {
      if (!p) continue;
      // A private anonymous mapping reads back as zero pages after DONTNEED.
      if (a->mapped && madvise(p, a->capacity, MADV_DONTNEED) == 0) continue;
      std::memset(p, 0, a->capacity);
    }
}

void Machine::BeginRun() {
  std::lock_guard<std::mutex> l(mu);
  ++run_;
  rendezvous_.clear();
  seq_.clear();
  for (RankStats& s : stats_) {
    s.bytes_sent = 0;
    s.bytes_received = 0;
    s.notifies = 0;
    s.waits = 0;
    s.collectives = 0;
  }
  std::lock_guard<std::mutex> e(err_mu_);
  failed_ = false;
  error_.clear();
  error_code_ = 0;
}

void Machine::NoteDispatch(int device, const Value& v) {
  if (v.kind == Value::Kind::kTuple) {
    for (const Value& e : *v.tuple) NoteDispatch(device, e);
    return;
  }
  int id = -1;
  if (v.kind == Value::Kind::kTensor && v.tensor->IsWindow()) id = v.tensor->alloc;
  if (v.kind == Value::Kind::kPtr || v.kind == Value::Kind::kCommCtx) id = static_cast<int>(v.i);
  if (id < 0) return;
  std::lock_guard<std::mutex> l(mu);
  if (allocs_[id]->devices.insert(device).second) allocs_[id]->domain = -1;
}

void Machine::SetExplicitDomain(const std::vector<std::string>& slots,
                                const std::vector<int>& devices) {
  std::lock_guard<std::mutex> l(mu);
  for (const auto& s : slots) {
    pending_explicit_[s] = devices;
    for (auto& a : allocs_)
      if (a->name == s) {
        a->explicit_devices = devices;
        a->domain = -1;
      }
  }
}

int Machine::DomainForDevices(std::vector<int> devices) {
  std::sort(devices.begin(), devices.end());
  devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
  auto it = domain_ids_.find(devices);
  if (it != domain_ids_.end()) return it->second;
  auto d = std::make_unique<Domain>();
  d->id = static_cast<int>(domains_.size());
  d->devices = devices;
  domains_.push_back(std::move(d));
  domain_ids_[devices] = domains_.back()->id;
  return domains_.back()->id;
}

int Machine::DomainOf(int alloc) {
  std::lock_guard<std::mutex> l(mu);
  Allocation& a = *allocs_[alloc];
  if (a.domain >= 0) return a.domain;
  std::vector<int> devs;
  if (a.explicit_devices && !a.explicit_devices->empty()) {
    devs = *a.explicit_devices;
  } else if (!a.explicit_devices && !a.devices.empty()) {
    devs.assign(a.devices.begin(), a.devices.end());
  } else {
    for (int d = 0; d < ranks_; ++d) devs.push_back(d);
  }
  a.domain = DomainForDevices(devs);
  return a.domain;
}

void Machine::InvalidateDomains() {
  std::lock_guard<std::mutex> l(mu);
  for (auto& a : allocs_) a->domain = -1;
}

Rendezvous& Machine::GetRendezvous(int domain, int64_t seq) {
  // mu held by the caller.
  auto& slot = rendezvous_[{domain, seq}];
  if (!slot) {
    slot = std::make_unique<Rendezvous>();
    slot->domain = domain;
    slot->seq = seq;
    size_t n = domains_[domain]->devices.size();
    slot->op.assign(n, "");
    slot->span.assign(n, Span{});
    slot->args.assign(n, {});
    slot->call.assign(n, nullptr);
  }
  return *slot;
}

int64_t Machine::NextCollectiveSeq(int device, int domain) {
  std::lock_guard<std::mutex> l(mu);
  return seq_[{device, domain}]++;
}

void Machine::Fail(const std::string& message, int exit_code) {
  std::lock_guard<std::mutex> l(err_mu_);
  if (failed_) return;
  error_ = message;
  error_code_ = exit_code;
  failed_ = true;
}

std::string Machine::error_message() {
  std::lock_guard<std::mutex> l(err_mu_);
  return error_;
}
int Machine::error_code() {
  std::lock_guard<std::mutex> l(err_mu_);
  return error_code_;
}

void Machine::ReadWindow(int alloc, int device, int64_t off, void* dst, size_t n) {
  if (uint8_t* p = WindowBytes(alloc, device)) {
    std::memcpy(dst, p + off, n);
    return;
  }
  transport_->Get(alloc, device, off, dst, n);
  transport_->Complete(alloc, device);
}

int32_t Machine::CellRead(int alloc, int device, int64_t off) {
  if (transport_) return transport_->CellRead(alloc, device, off);
  return CellLoad(WindowBytes(alloc, device) + off);
}

void Machine::CellNotify(int alloc, int device, int64_t off, bool set, int32_t v) {
  if (transport_) return transport_->CellNotify(alloc, device, off, set, v);
  uint8_t* p = WindowBytes(alloc, device) + off;
  set ? CellSet(p, v) : CellAdd(p, v);
}

int32_t CellLoad(uint8_t* p) {
  return std::atomic_ref<int32_t>(*reinterpret_cast<int32_t*>(p)).load();
}
void CellAdd(uint8_t* p, int32_t v) {
  std::atomic_ref<int32_t>(*reinterpret_cast<int32_t*>(p)).fetch_add(v);
}
void CellSet(uint8_t* p, int32_t v) {
  std::atomic_ref<int32_t>(*reinterpret_cast<int32_t*>(p)).store(v);
}

}  // namespace pypto::sim
