// The seam between the executor and the memory of ranks it does not hold.
//
// The in-process engine holds every rank's copy of every window in one process
// and needs no transport (Machine::transport() is null): remote reads and
// writes are memcpy, signal cells std::atomic_ref. A Transport is the other
// engine: this process holds one rank (local_rank()); the windows of the other
// ranks are reached only through it. Every op semantics of src/sim/semantics
// goes through the same Machine / Exec helpers in both engines, which call the
// transport only where a rank's memory is not in this process (and for every
// atomic or signal-cell access, which must be atomic against the other
// processes' accesses too). The MPI-3 RMA implementation is
// src/sim/transport_mpi.cc (include/pypto/sim/transport_mpi.h), built when
// CMake finds MPI.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pypto/core/dtype.h"
#include "pypto/core/span.h"

namespace pypto::sim {

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int local_rank() const = 0;  // the rank whose windows this process holds
  virtual int world_size() const = 0;

  // Window allocation `id` of `bytes` on every rank, collective: every process
  // must allocate the same windows in the same order (checked: a divergence is
  // an error naming both sides, returned in *error with nullptr). Returns this
  // rank's copy, zeroed, once every rank has zeroed its copy.
  virtual uint8_t* Allocate(int id, const std::string& name, size_t bytes, const std::string& where,
                            std::string* error) = 0;
  virtual void Free(int id) = 0;

  // Data access to rank `dev`'s copy of window `id` at byte `off`. Puts and
  // atomic adds are complete at the target when Complete(id, dev) returns, gets
  // when it returns (one Complete per op, after all of its rows).
  virtual void Get(int id, int dev, int64_t off, void* dst, size_t n) = 0;
  virtual void Put(int id, int dev, int64_t off, const void* src, size_t n) = 0;
  // Element-wise atomic add of `count` addends (doubles, converted exactly as
  // the in-process atomic add converts them) to dtype `dt` elements.
  virtual void AtomicAdd(int id, int dev, int64_t off, DataType dt, const double* addends,
                         int64_t count) = 0;
  virtual void Complete(int id, int dev) = 0;

  // INT32 signal cells. Notify first makes every earlier write of this process
  // visible (its local stores and its completed puts), then adds / sets.
  virtual int32_t CellRead(int id, int dev, int64_t off) = 0;
  virtual void CellNotify(int id, int dev, int64_t off, bool set, int32_t v) = 0;
  // After a wait saw its condition: orders the delivered data before later loads.
  virtual void Acquire() = 0;

  // Process-level agreement (host merge points, the end of the run): every
  // process passes its status (0 = ok, else its exit code) and gets every
  // rank's. Once any rank reported a failure, later calls return that result
  // without communicating (the failing rank calls it no more).
  virtual std::vector<int> AgreeStatus(int status) = 0;
  // Every rank's `mine` (concatenated by rank in *all, with *sizes).
  virtual void AllGather(const std::vector<uint8_t>& mine, std::vector<uint8_t>* all,
                         std::vector<size_t>* sizes) = 0;
  virtual void Barrier() = 0;

  // Point-to-point rounds among a subset of the ranks (a whole-operation
  // collective's comm domain): StartExchange sends `mine` to every other rank
  // of `ranks` (sorted, this rank among them) and starts receiving theirs;
  // ExchangeDone polls (the caller blocks through its scheduler, so deadlines
  // and peer failures apply), Missing names the ranks not heard from yet, and
  // TakeExchange returns every rank's bytes in `ranks` order and ends the round.
  // Rounds among one set of ranks complete in the order they were started.
  virtual int StartExchange(const std::vector<int>& ranks, const std::vector<uint8_t>& mine) = 0;
  virtual bool ExchangeDone(int round) = 0;
  virtual std::vector<int> Missing(int round) = 0;
  virtual std::vector<std::vector<uint8_t>> TakeExchange(int round) = 0;
  // Becomes true once another process reported a failure (AgreeStatus with a
  // non-zero status), seen by this process's next signal-cell poll; the run
  // then stops its blocked threads (reporting them) instead of waiting for the
  // deadline. Null when the transport has no such signal.
  virtual const std::atomic<bool>* peer_failed() const { return nullptr; }
};

}  // namespace pypto::sim
