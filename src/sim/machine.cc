// Machine bookkeeping: allocations, domain inference, rendezvous, errors.
#include "pypto/sim/machine.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

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

Machine::Machine(int ranks, bool poison_nan)
    : ranks_(ranks), poison_nan_(poison_nan), stats_(static_cast<size_t>(ranks)) {}

Machine::~Machine() {
  for (auto& a : allocs_)
    for (uint8_t* p : a->mem) std::free(p);
}

int Machine::NewAllocation(const std::string& name, int64_t bytes, Span span) {
  std::lock_guard<std::mutex> l(mu);
  auto a = std::make_unique<Allocation>();
  a->id = static_cast<int>(allocs_.size());
  a->name = name;
  a->bytes = bytes;
  a->span = span;
  size_t cap = ((static_cast<size_t>(bytes) + 63) / 64) * 64;
  if (cap == 0) cap = 64;
  for (int d = 0; d < ranks_; ++d) {
    auto* p = static_cast<uint8_t*>(std::aligned_alloc(64, cap));
    std::memset(p, 0, cap);
    a->mem.push_back(p);
  }
  auto it = pending_explicit_.find(name);
  if (it != pending_explicit_.end()) a->explicit_devices = it->second;
  allocs_.push_back(std::move(a));
  return allocs_.back()->id;
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
