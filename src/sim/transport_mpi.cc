// MpiTransport: the MPI-3 one-sided engine behind pypto-run --transport=mpi
// (the recipe is in include/pypto/sim/transport_mpi.h). Compiled only when
// CMake finds MPI.
#include "pypto/sim/transport_mpi.h"

#include <fmt/format.h>
#include <mpi.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

#include "pypto/core/check.h"
#include "pypto/sim/value.h"

namespace pypto::sim {

namespace {

// MPI counts are int: larger transfers go in pieces of this many bytes.
constexpr size_t kMaxPiece = size_t{1} << 30;

// The allocation every process describes before a collective MPI_Win_allocate.
struct AllocRecord {
  int64_t id = 0;
  int64_t bytes = 0;
  char name[48] = {};
  char where[16] = {};
};

std::string Describe(const AllocRecord& r) {
  return fmt::format("'{}' ({} bytes) at line {}", std::string(r.name, strnlen(r.name, 48)),
                     r.bytes, std::string(r.where, strnlen(r.where, 16)));
}

bool Same(const AllocRecord& a, const AllocRecord& b) {
  return a.id == b.id && a.bytes == b.bytes && std::memcmp(a.name, b.name, sizeof(a.name)) == 0 &&
         std::memcmp(a.where, b.where, sizeof(a.where)) == 0;
}

// The MPI type of an element MPI_SUM adds exactly as the in-process atomic add
// does (exec.cc); MPI_DATATYPE_NULL for the dtypes added by compare-and-swap.
MPI_Datatype SumType(DataType dt) {
  switch (dt) {
    case DataType::kFP32:
      return MPI_FLOAT;
    case DataType::kFP64:
      return MPI_DOUBLE;
    case DataType::kInt32:
      return MPI_INT32_T;
    case DataType::kInt16:
      return MPI_INT16_T;
    case DataType::kInt8:
      return MPI_INT8_T;
    default:
      return MPI_DATATYPE_NULL;
  }
}

// The unsigned integer type of an element's bytes (compare-and-swap).
MPI_Datatype BitsType(int bytes) {
  switch (bytes) {
    case 1:
      return MPI_UINT8_T;
    case 2:
      return MPI_UINT16_T;
    case 4:
      return MPI_UINT32_T;
    default:
      return MPI_UINT64_T;
  }
}

template <typename T>
std::vector<uint8_t> Addends(const double* v, int64_t n) {
  std::vector<uint8_t> out(static_cast<size_t>(n) * sizeof(T));
  for (int64_t i = 0; i < n; ++i) {
    T x = static_cast<T>(v[i]);
    std::memcpy(out.data() + i * sizeof(T), &x, sizeof(T));
  }
  return out;
}

class MpiTransport final : public Transport {
 public:
  MpiTransport() {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    MPI_Comm_dup(MPI_COMM_WORLD, &xcomm_);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    // One INT32 "a peer failed" cell per process (peer_failed()).
    MPI_Win_allocate(sizeof(int32_t), 1, MPI_INFO_NULL, comm_, &ctl_base_, &ctl_);
    std::memset(ctl_base_, 0, sizeof(int32_t));
    MPI_Win_lock_all(MPI_MODE_NOCHECK, ctl_);
    MPI_Barrier(comm_);
  }
  ~MpiTransport() override {
    MPI_Win_unlock_all(ctl_);
    MPI_Win_free(&ctl_);
    MPI_Comm_free(&xcomm_);
    MPI_Comm_free(&comm_);
    MPI_Finalize();
  }

  int local_rank() const override { return rank_; }
  int world_size() const override { return size_; }

  uint8_t* Allocate(int id, const std::string& name, size_t bytes, const std::string& where,
                    std::string* error) override {
    std::lock_guard<std::mutex> l(mu_);
    AllocRecord mine;
    mine.id = id;
    mine.bytes = static_cast<int64_t>(bytes);
    std::strncpy(mine.name, name.c_str(), sizeof(mine.name) - 1);
    std::strncpy(mine.where, where.c_str(), sizeof(mine.where) - 1);
    std::vector<AllocRecord> all(static_cast<size_t>(size_));
    MPI_Allgather(&mine, sizeof(mine), MPI_BYTE, all.data(), sizeof(mine), MPI_BYTE, comm_);
    for (int r = 1; r < size_; ++r)
      if (!Same(all[0], all[r])) {
        *error = fmt::format(
            "window allocation #{} diverges across the processes: rank 0 allocates {} but rank {} "
            "allocates {}; with --transport=mpi every process allocates the same windows in the "
            "same order (allocate them in the host orchestrator, not under a rank-dependent "
            "condition)",
            id, Describe(all[0]), r, Describe(all[r]));
        return nullptr;
      }
    Window w;
    void* base = nullptr;
    MPI_Win_allocate(static_cast<MPI_Aint>(bytes), 1, MPI_INFO_NULL, comm_, &base, &w.win);
    w.base = static_cast<uint8_t*>(base);
    std::memset(w.base, 0, bytes);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, w.win);
    MPI_Barrier(comm_);  // every copy is zeroed before any rank writes into one
    wins_[id] = w;
    return w.base;
  }

  void Free(int id) override {
    std::lock_guard<std::mutex> l(mu_);
    auto it = wins_.find(id);
    if (it == wins_.end()) return;
    MPI_Win_unlock_all(it->second.win);
    MPI_Win_free(&it->second.win);
    wins_.erase(it);
  }

  void Get(int id, int dev, int64_t off, void* dst, size_t n) override {
    std::lock_guard<std::mutex> l(mu_);
    for (size_t at = 0; at < n; at += kMaxPiece) {
      int k = static_cast<int>(std::min(kMaxPiece, n - at));
      MPI_Get(static_cast<uint8_t*>(dst) + at, k, MPI_BYTE, dev,
              static_cast<MPI_Aint>(off + static_cast<int64_t>(at)), k, MPI_BYTE, WinOf(id));
    }
  }

  void Put(int id, int dev, int64_t off, const void* src, size_t n) override {
    std::lock_guard<std::mutex> l(mu_);
    for (size_t at = 0; at < n; at += kMaxPiece) {
      int k = static_cast<int>(std::min(kMaxPiece, n - at));
      MPI_Put(static_cast<const uint8_t*>(src) + at, k, MPI_BYTE, dev,
              static_cast<MPI_Aint>(off + static_cast<int64_t>(at)), k, MPI_BYTE, WinOf(id));
    }
  }

  void AtomicAdd(int id, int dev, int64_t off, DataType dt, const double* addends,
                 int64_t count) override {
    std::lock_guard<std::mutex> l(mu_);
    MPI_Win w = WinOf(id);
    int eb = DTypeBytes(dt);
    if (MPI_Datatype t = SumType(dt); t != MPI_DATATYPE_NULL) {
      std::vector<uint8_t> buf;
      switch (dt) {
        case DataType::kFP32:  // the addend rounded to FP32, as the hardware adds
          buf = Addends<float>(addends, count);
          break;
        case DataType::kFP64:
          buf = Addends<double>(addends, count);
          break;
        case DataType::kInt32:
          buf = Addends<int32_t>(addends, count);
          break;
        case DataType::kInt16:
          buf = Addends<int16_t>(addends, count);
          break;
        default:
          buf = Addends<int8_t>(addends, count);
          break;
      }
      int64_t piece = static_cast<int64_t>(kMaxPiece) / eb;
      for (int64_t at = 0; at < count; at += piece) {
        int k = static_cast<int>(std::min(piece, count - at));
        MPI_Accumulate(buf.data() + at * eb, k, t, dev, static_cast<MPI_Aint>(off + at * eb), k, t,
                       MPI_SUM, w);
      }
      return;
    }
    // Compare-and-swap until the element holds (what it held) + addend,
    // computed by AddElem exactly as the in-process add computes it.
    MPI_Datatype bits = BitsType(eb);
    for (int64_t i = 0; i < count; ++i) {
      MPI_Aint at = static_cast<MPI_Aint>(off + i * eb);
      uint64_t cur = 0, next = 0, seen = 0;
      MPI_Fetch_and_op(nullptr, &cur, bits, dev, at, MPI_NO_OP, w);
      MPI_Win_flush(dev, w);
      for (;;) {
        next = cur;
        AddElem(reinterpret_cast<uint8_t*>(&next), dt, addends[i]);
        MPI_Compare_and_swap(&next, &cur, &seen, bits, dev, at, w);
        MPI_Win_flush(dev, w);
        if (std::memcmp(&seen, &cur, static_cast<size_t>(eb)) == 0) break;
        cur = seen;
      }
    }
  }

  void Complete(int id, int dev) override {
    std::lock_guard<std::mutex> l(mu_);
    MPI_Win_flush(dev, WinOf(id));
  }

  int32_t CellRead(int id, int dev, int64_t off) override {
    std::lock_guard<std::mutex> l(mu_);
    int32_t v = 0;
    MPI_Win w = WinOf(id);
    MPI_Fetch_and_op(nullptr, &v, MPI_INT32_T, dev, static_cast<MPI_Aint>(off), MPI_NO_OP, w);
    MPI_Win_flush(dev, w);
    PollPeerFailed();
    return v;
  }

  void CellNotify(int id, int dev, int64_t off, bool set, int32_t v) override {
    std::lock_guard<std::mutex> l(mu_);
    for (auto& [wid, win] : wins_) MPI_Win_sync(win.win);  // this process's stores first
    MPI_Win w = WinOf(id);
    MPI_Accumulate(&v, 1, MPI_INT32_T, dev, static_cast<MPI_Aint>(off), 1, MPI_INT32_T,
                   set ? MPI_REPLACE : MPI_SUM, w);
    MPI_Win_flush(dev, w);
  }

  void Acquire() override {
    std::lock_guard<std::mutex> l(mu_);
    for (auto& [wid, win] : wins_) MPI_Win_sync(win.win);
  }

  std::vector<int> AgreeStatus(int status) override {
    std::unique_lock<std::mutex> l(mu_);
    if (agreed_failure_) return agreed_;
    if (status != 0) {  // tell every peer now: their blocked waits stop (peer_failed())
      int32_t one = 1;
      for (int r = 0; r < size_; ++r)
        if (r != rank_) MPI_Accumulate(&one, 1, MPI_INT32_T, r, 0, 1, MPI_INT32_T, MPI_SUM, ctl_);
      MPI_Win_flush_all(ctl_);
    }
    std::vector<int> all(static_cast<size_t>(size_));
    MPI_Request req;
    MPI_Iallgather(&status, 1, MPI_INT, all.data(), 1, MPI_INT, comm_, &req);
    // Polled with a growing sleep (up to 1 ms): a peer may take up to its
    // deadline to get here, and this process must not spin meanwhile.
    for (int us = 1;;) {
      int done = 0;
      MPI_Test(&req, &done, MPI_STATUS_IGNORE);
      if (done) break;
      l.unlock();
      std::this_thread::sleep_for(std::chrono::microseconds(us));
      us = std::min(us * 2, 1000);
      l.lock();
    }
    for (int s : all)
      if (s != 0) {
        agreed_failure_ = true;
        agreed_ = all;
      }
    return all;
  }

  void AllGather(const std::vector<uint8_t>& mine, std::vector<uint8_t>* all,
                 std::vector<size_t>* sizes) override {
    std::lock_guard<std::mutex> l(mu_);
    uint64_t n = mine.size();
    std::vector<uint64_t> ns(static_cast<size_t>(size_));
    MPI_Allgather(&n, 1, MPI_UINT64_T, ns.data(), 1, MPI_UINT64_T, comm_);
    std::vector<int> counts(static_cast<size_t>(size_)), displs(static_cast<size_t>(size_));
    uint64_t total = 0;
    for (int r = 0; r < size_; ++r) {
      PYPTO_CHECK(ns[r] <= INT_MAX && total + ns[r] <= INT_MAX,
                  "MPI host merge of more than 2 GiB is not supported");
      counts[r] = static_cast<int>(ns[r]);
      displs[r] = static_cast<int>(total);
      total += ns[r];
    }
    all->assign(total, 0);
    sizes->assign(ns.begin(), ns.end());
    MPI_Allgatherv(mine.data(), static_cast<int>(n), MPI_BYTE, all->data(), counts.data(),
                   displs.data(), MPI_BYTE, comm_);
  }

  void Barrier() override {
    std::lock_guard<std::mutex> l(mu_);
    MPI_Barrier(comm_);
  }

  const std::atomic<bool>* peer_failed() const override { return &peer_failed_; }

  int StartExchange(const std::vector<int>& ranks, const std::vector<uint8_t>& mine) override {
    std::lock_guard<std::mutex> l(mu_);
    int id = next_round_++;
    Round& rd = rounds_[id];
    rd.ranks = ranks;
    rd.tag = TagOf(ranks);
    rd.mine = mine;
    rd.got.resize(ranks.size());
    rd.have.assign(ranks.size(), false);
    for (size_t i = 0; i < ranks.size(); ++i) {
      if (ranks[i] == rank_) {
        rd.got[i] = mine;
        rd.have[i] = true;
        continue;
      }
      PYPTO_CHECK(rd.mine.size() <= INT_MAX, "MPI collective message of more than 2 GiB");
      rd.sends.emplace_back();
      MPI_Isend(rd.mine.data(), static_cast<int>(rd.mine.size()), MPI_BYTE, ranks[i], rd.tag,
                xcomm_, &rd.sends.back());
    }
    return id;
  }

  bool ExchangeDone(int round) override {
    std::lock_guard<std::mutex> l(mu_);
    Round& rd = rounds_.at(round);
    bool all = true;
    for (size_t i = 0; i < rd.ranks.size(); ++i) {
      if (rd.have[i]) continue;
      int flag = 0, n = 0;
      MPI_Status st;
      MPI_Iprobe(rd.ranks[i], rd.tag, xcomm_, &flag, &st);
      if (!flag) {
        all = false;
        continue;
      }
      MPI_Get_count(&st, MPI_BYTE, &n);
      rd.got[i].resize(static_cast<size_t>(n));
      MPI_Recv(rd.got[i].data(), n, MPI_BYTE, rd.ranks[i], rd.tag, xcomm_, MPI_STATUS_IGNORE);
      rd.have[i] = true;
    }
    int sent = 1;
    if (!rd.sends.empty())
      MPI_Testall(static_cast<int>(rd.sends.size()), rd.sends.data(), &sent, MPI_STATUSES_IGNORE);
    PollPeerFailed();
    return all && sent;
  }

  std::vector<int> Missing(int round) override {
    std::lock_guard<std::mutex> l(mu_);
    const Round& rd = rounds_.at(round);
    std::vector<int> out;
    for (size_t i = 0; i < rd.ranks.size(); ++i)
      if (!rd.have[i]) out.push_back(rd.ranks[i]);
    return out;
  }

  std::vector<std::vector<uint8_t>> TakeExchange(int round) override {
    std::lock_guard<std::mutex> l(mu_);
    Round& rd = rounds_.at(round);
    if (!rd.sends.empty())
      MPI_Waitall(static_cast<int>(rd.sends.size()), rd.sends.data(), MPI_STATUSES_IGNORE);
    std::vector<std::vector<uint8_t>> got = std::move(rd.got);
    rounds_.erase(round);
    return got;
  }

 private:
  struct Round {
    std::vector<int> ranks;
    int tag = 0;
    std::vector<uint8_t> mine;
    std::vector<std::vector<uint8_t>> got;
    std::vector<bool> have;
    std::vector<MPI_Request> sends;
  };
  // One tag per set of ranks (on xcomm_, which carries nothing else): rounds of
  // one set match in order; two sets sharing a pair rarely share a tag.
  static int TagOf(const std::vector<int>& ranks) {
    uint64_t h = 1469598103934665603ull;
    for (int r : ranks) h = (h ^ static_cast<uint64_t>(r)) * 1099511628211ull;
    return static_cast<int>(h % 32000);
  }

  struct Window {
    MPI_Win win = MPI_WIN_NULL;
    uint8_t* base = nullptr;
  };
  MPI_Win WinOf(int id) {
    auto it = wins_.find(id);
    PYPTO_CHECK(it != wins_.end(), "MPI transport: no window #" + std::to_string(id));
    return it->second.win;
  }
  // Reads this process's "a peer failed" cell, at most every millisecond (mu_ held).
  void PollPeerFailed() {
    auto now = std::chrono::steady_clock::now();
    if (now - last_poll_ < std::chrono::milliseconds(1)) return;
    last_poll_ = now;
    int32_t v = 0;
    MPI_Fetch_and_op(nullptr, &v, MPI_INT32_T, rank_, 0, MPI_NO_OP, ctl_);
    MPI_Win_flush(rank_, ctl_);
    if (v != 0) peer_failed_ = true;
  }

  std::mutex mu_;
  MPI_Comm comm_ = MPI_COMM_NULL, xcomm_ = MPI_COMM_NULL;
  std::map<int, Round> rounds_;
  int next_round_ = 0;
  int rank_ = 0, size_ = 1;
  std::map<int, Window> wins_;
  MPI_Win ctl_ = MPI_WIN_NULL;
  void* ctl_base_ = nullptr;
  std::chrono::steady_clock::time_point last_poll_{};
  std::atomic<bool> peer_failed_{false};
  bool agreed_failure_ = false;
  std::vector<int> agreed_;
};

// mpirun (Open MPI, or a PMI / PMIx launcher) sets one of these in each process it starts.
bool StartedByLauncher() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
    if (std::getenv(v)) return true;
  return false;
}

}  // namespace

bool MpiTransportBuilt() { return true; }

std::unique_ptr<Transport> StartMpiTransport(int* argc, char*** argv, std::string* error) {
  if (!StartedByLauncher()) {
    *error =
        "--transport=mpi runs one rank per process and needs mpirun to start the processes, "
        "but this one was not started by it (no OMPI_COMM_WORLD_SIZE or PMIX_RANK in the "
        "environment); run: mpirun -np P pypto-run FILE --transport=mpi ...";
    return nullptr;
  }
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    *error =
        "--transport=mpi: this MPI library does not provide MPI_THREAD_SERIALIZED (every rank "
        "runs its logical threads as OS threads that call MPI one at a time)";
    return nullptr;
  }
  return std::make_unique<MpiTransport>();
}

}  // namespace pypto::sim
