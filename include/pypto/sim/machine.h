// The simulated machine: P device ranks, window allocations (one zeroed copy
// per rank), comm domains (distinct device sets, inferred from which ranks a
// window's views are dispatched to, or given by a CommDomainScopeStmt), INT32
// signal cells with atomic add/set, collective rendezvous points, per-rank
// traffic statistics and the first fatal error. Thread-safe: signal cells use
// std::atomic_ref, bookkeeping is under `mu`. With a Transport (one rank per
// process, include/pypto/sim/transport.h) only the local rank's copy of each
// window is in this process; cell and remote accesses go through the transport.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "pypto/core/span.h"
#include "pypto/sim/transport.h"
#include "pypto/sim/value.h"

namespace pypto::sim {

// A user-visible runtime error (exit code 1, or 3 for detector findings).
struct SimError : std::runtime_error {
  SimError(Span s, std::string msg, int code = 1)
      : std::runtime_error(std::move(msg)), span(s), exit_code(code) {}
  Span span;
  int exit_code;
};

// RunOptions::max_steps exceeded at `s` (a loop iteration or a switch point).
inline SimError StepBudgetError(Span s, int64_t max_steps) {
  return SimError(s, "the run exceeded its step budget (--max-steps " + std::to_string(max_steps) +
                         ": loop iterations plus schedule switch points, summed over all "
                         "threads); raise --max-steps or look for an endless loop");
}

// Thrown inside a logical thread when the run is being torn down (another
// thread failed or a deadlock was reported); threads unwind silently.
struct Aborted {};

struct Allocation {
  int id = 0;
  std::string name;
  int64_t bytes = 0;
  Span span;
  std::vector<uint8_t*> mem;  // per device, 64-byte aligned, zeroed (null: held by another process)
  size_t capacity = 0;        // bytes of each mem[d] (>= bytes)
  bool mapped = false;        // mem[d] are lazily zeroed anonymous mappings (munmap, not free)
  std::set<int> devices;      // devices its views were dispatched to
  std::optional<std::vector<int>> explicit_devices;  // from pld.comm_domain
  int domain = -1;                                   // cached (reset when devices change)
  bool signal = false;  // used as a signal (notify/wait/collective signal)
  // Used for synchronization: waited on, notified with AtomicAdd or passed as a
  // collective's signal. A window only ever notified with Set and never waited
  // on holds published values (all_to_all_v's recv_counts), not a self-clearing
  // signal, so the end-of-run residue check skips it.
  bool sync_signal = false;
  std::vector<int64_t> signal_shape;  // shape of the view it was last used as a signal through
  std::string signal_view;            // name of that view
  bool poisoned = false;
  int64_t run = 0;  // the Machine run that last allocated (or re-claimed) it
};

struct Domain {
  int id = 0;
  std::vector<int> devices;  // sorted; rank i of the domain is devices[i]
  int RankOf(int device) const;
  std::string Describe() const;  // "{0, 1, 2}"
};

struct RankStats {
  std::atomic<int64_t> bytes_sent{0}, bytes_received{0}, notifies{0}, waits{0}, collectives{0};
};

// One whole-operation collective call: the k-th collective of every rank of a domain.
struct Rendezvous {
  int domain = 0;
  int64_t seq = 0;
  std::vector<std::string> op;  // per domain rank ("" = not arrived)
  std::vector<Span> span;
  std::vector<std::vector<Value>> args;
  std::vector<const void*> call;  // the ir::Call of each rank (kwargs)
  int arrived = 0;
  std::atomic<bool> done{false};  // every rank arrived (and the ops agree)
  std::atomic<int> finished{0};   // ranks done with their share of the work
  std::vector<uint32_t> clock;    // joined vector clock of all arrivals
  std::string error;              // set by the completing rank on mismatch
};

class Machine {
 public:
  // memory_limit: bytes all window allocations together (every rank's copy)
  // may reach; 0 = no limit. transport: null for the in-process engine (every
  // rank's memory here), else this process holds transport->local_rank() only.
  Machine(int ranks, bool poison_nan, int64_t memory_limit = 0, Transport* transport = nullptr);
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  int ranks() const { return ranks_; }
  bool poison_nan() const { return poison_nan_; }
  Transport* transport() const { return transport_; }
  // Whether rank `device` runs in this process (always, without a transport).
  bool IsLocal(int device) const { return !transport_ || device == transport_->local_rank(); }

  // A window allocation of `bytes` (> 0) on every rank, zeroed. Large ones are
  // anonymous mappings the kernel zeroes page by page on first touch, so a
  // barely used 4 GiB window costs a few pages. Throws SimError (at `span`)
  // when the memory limit would be exceeded or the memory is not available.
  int NewAllocation(const std::string& name, int64_t bytes, Span span);
  int64_t window_bytes() const { return window_bytes_; }  // all ranks' copies

  // Persistent windows (sim::Session): an allocation made again at the same
  // source position with the same name and size returns the existing one, its
  // bytes kept, instead of a new zeroed copy.
  void SetPersistent(bool on) { persistent_ = on; }
  bool persistent() const { return persistent_; }
  // Zeroes every byte of every allocation on every rank.
  void ZeroWindows();
  // Clears what one run leaves behind (collective rendezvous and sequence
  // numbers, statistics, the first error) so the machine can run again.
  void BeginRun();
  Allocation& alloc(int id) { return *allocs_[id]; }
  size_t NumAllocations() const { return allocs_.size(); }
  // Rank `device`'s copy of an allocation; null when another process holds it.
  uint8_t* WindowBytes(int alloc, int device) { return allocs_[alloc]->mem[device]; }
  // n bytes at `off` of rank `device`'s copy (through the transport when remote).
  void ReadWindow(int alloc, int device, int64_t off, void* dst, size_t n);
  // INT32 signal cells at byte `off` of rank `device`'s copy: atomic in this
  // process, and against other processes through the transport.
  int32_t CellRead(int alloc, int device, int64_t off);
  void CellNotify(int alloc, int device, int64_t off, bool set, int32_t v);

  // Records that `v` (possibly a tuple) was dispatched to `device`.
  void NoteDispatch(int device, const Value& v);
  // Pending comm_domain scopes: allocations named in `slots` get `devices`.
  void SetExplicitDomain(const std::vector<std::string>& slots, const std::vector<int>& devices);
  // The domain of an allocation (all ranks when nothing dispatched it).
  int DomainOf(int alloc);
  const Domain& domain(int id) { return *domains_[id]; }
  int DomainForDevices(std::vector<int> devices);
  void InvalidateDomains();

  // Rendezvous k of a domain (created on first arrival).
  Rendezvous& GetRendezvous(int domain, int64_t seq);
  int64_t NextCollectiveSeq(int device, int domain);

  std::vector<RankStats>& stats() { return stats_; }

  // Fatal error bookkeeping: the first error wins; later ones are dropped.
  void Fail(const std::string& message, int exit_code);
  bool failed() const { return failed_.load(); }
  std::string error_message();
  int error_code();

  std::mutex mu;

 private:
  int ranks_;
  bool poison_nan_;
  int64_t memory_limit_;
  Transport* transport_;
  int64_t window_bytes_ = 0;  // under mu
  bool persistent_ = false;
  int64_t run_ = 0;  // BeginRun count
  std::vector<std::unique_ptr<Allocation>> allocs_;
  std::vector<std::unique_ptr<Domain>> domains_;
  std::map<std::vector<int>, int> domain_ids_;
  std::map<std::string, std::vector<int>> pending_explicit_;
  std::map<std::pair<int, int64_t>, std::unique_ptr<Rendezvous>> rendezvous_;
  std::map<std::pair<int, int>, int64_t> seq_;
  std::vector<RankStats> stats_;
  std::atomic<bool> failed_{false};
  std::string error_;
  int error_code_ = 0;
  std::mutex err_mu_;
};

// INT32 cell operations (atomic, seq_cst).
int32_t CellLoad(uint8_t* p);
void CellAdd(uint8_t* p, int32_t v);
void CellSet(uint8_t* p, int32_t v);

}  // namespace pypto::sim
