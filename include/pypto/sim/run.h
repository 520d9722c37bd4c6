// Public entry point of the reference multi-rank executor (`pypto-run`, pypto.sim.run).
//
// RunProgram interprets a Program at any pipeline stage on P simulated ranks: the
// host orchestrator (or `entry`) runs on the host thread, `self.f(..., device=r)`
// dispatches onto rank r's device worker, windows and INT32 signal cells are
// simulated per comm domain, and pld collectives that are still whole operations
// execute as a rendezvous of every rank of their domain (the semantic oracle for
// lowerings). Deterministic under Schedule::kRandom (same seed, same run, same
// trace bytes). Never throws for user errors: everything lands in RunResult.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "pypto/core/dtype.h"
#include "pypto/ir/program.h"

namespace pypto::ir {
class Context;
}

namespace pypto::sim {

enum class Schedule {
  kParallel,  // one OS thread per logical thread; waits spin briefly, then yield
  kRandom,    // one logical thread at a time; seeded baton choice at every comm op
  kPct,       // one logical thread at a time; PCT priorities with depth-1 change points
};

// Default PCT depth (pct:SEED without :DEPTH): 2 priority change points.
inline constexpr int kDefaultPctDepth = 3;
// Default PCT horizon: change points fall on switch steps 1 .. this.
inline constexpr int64_t kDefaultPctSteps = 64;

// The largest world size pypto-run, pypto.sim.run and RunProgram accept.
inline constexpr int kMaxRanks = 1024;
// Default RunOptions::memory_limit: 16 GiB of windows and host tensors.
inline constexpr int64_t kDefaultMemoryLimit = int64_t{16} << 30;

class Transport;
struct SubWorkerCall;
// Runs one HOST SubWorker call on the host (pypto.runtime binds the Python
// function the DSL decorated). Throws a std::exception whose what() goes into
// the run's report when the host code fails.
using SubWorkerFn = std::function<void(SubWorkerCall&)>;

struct RunOptions {
  int ranks = 2;      // world size P (1 .. kMaxRanks)
  std::string entry;  // "" = the host orchestrator (or the only function)
  Schedule schedule = Schedule::kParallel;
  uint64_t seed = 0;                     // kRandom / kPct
  int pct_depth = kDefaultPctDepth;      // kPct: priority change points + 1 (1 .. 64)
  int64_t pct_steps = kDefaultPctSteps;  // kPct: change points fall on steps 1 .. pct_steps
  // Upper bound on loop iterations plus schedule switch points, summed over all
  // logical threads; a run that takes more is an error (exit 1). 0 = no bound.
  int64_t max_steps = 0;
  double deadline_s = 30.0;      // parallel mode: no progress for this long = deadlock
  bool check_signals = false;    // report non-zero signal cells (after collectives, at end)
  bool check_alignment = false;  // a GM transfer starting off a 32-byte boundary is an error
  bool detect_races = false;     // happens-before race detection on window bytes
  bool poison_nan = false;       // fill windows (non-signal) and Out buffers with NaN
  std::string trace_path;        // Chrome trace JSON, streamed while running ("" = none)
  std::string timeline_path;     // self-contained HTML timeline ("" = none)
  std::string program_name;      // shown in the timeline's title (the program file)
  bool stats = false;            // append bytes moved / notifies / waits per rank to report
  // When set, inputs that are not given are generated from this seed as exactly
  // representable small integers (so float sums are order-independent).
  bool inputs_random = false;
  uint64_t inputs_seed = 0;
  // Verify the program first (the checks of pypto-opt); a program the verifier
  // rejects is not run (exit 1, the rendered diagnostics in the report).
  bool verify = true;
  // Upper bound in bytes on the run's memory: window allocations on every rank
  // plus the entry's host tensors. An up-front estimate above it is refused
  // before anything is allocated, and so is a window allocation that would
  // exceed it at run time. 0 = no limit.
  int64_t memory_limit = kDefaultMemoryLimit;
  // When set, polled while running: once it reads true the run is torn down
  // (every logical thread unwinds and is joined) and RunProgram returns
  // exit code 130 with "interrupted" in the report.
  const std::atomic<bool>* cancel = nullptr;
  // Called when the host orchestrator calls a HOST SubWorker function; unset,
  // such a call is an error (pypto-run cannot run host Python).
  SubWorkerFn subworker;
  // Null: the in-process engine (every rank in this process). Otherwise this
  // process runs one rank, transport->local_rank(), of a multi-process run
  // (pypto-run --transport=mpi): every process calls RunProgram with the same
  // program, inputs and options; ranks must equal transport->world_size(), and
  // the parallel schedule without --detect-races, --trace or --timeline is
  // required (CheckRunOptions says why otherwise).
  Transport* transport = nullptr;
};

// A host array: row-major, little-endian element bytes. BF16 is stored as the
// upper 16 bits of the FP32 pattern (npy files carry it as <u2).
struct HostArray {
  DataType dtype = DataType::kFP32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  int64_t NumElements() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
};

// One HOST SubWorker call: packed copies of the arguments in, results out.
// Arguments are tensors (host tensors; BF16 as upper-half bit patterns) or
// scalars (0-d arrays). After the call the executor copies the `writable`
// ones (Out / InOut parameters) back into the caller's tensors.
struct SubWorkerCall {
  const ir::Function* fn = nullptr;
  std::vector<HostArray> args;
  std::vector<bool> writable;
  std::vector<bool> is_scalar;
  // Set by the callback. `returned` false: the function returned nothing.
  // Otherwise one entry per returned value: the argument index it returned
  // (arg >= 0), or a new array.
  struct Result {
    int arg = -1;
    HostArray array;
  };
  bool returned = false;
  std::vector<Result> results;
};

// exit_code: 0 success; 1 user error (the verifier rejects the program,
// bad/missing/mis-shaped/unknown input, memory limit exceeded, runtime error in
// the program such as an out-of-bounds peer access, a window or thread that
// cannot be allocated); 2 usage error (unknown entry, bad options); 3 detected
// deadlock or race; 130 interrupted through RunOptions::cancel.
struct RunResult {
  int exit_code = 0;
  std::string report;  // diagnostics (deadlock / race / residue / errors) and --stats
  std::map<std::string, HostArray> outputs;  // every Out and InOut parameter of the entry
};

RunResult RunProgram(ir::Context& ctx, const ir::Program& program,
                     const std::map<std::string, HostArray>& inputs, const RunOptions& options);

class Machine;
// RunProgram on an existing machine (sim::Session keeps one across runs):
// options.ranks must equal machine.ranks(); the machine's poison / memory
// limit settings are its own.
RunResult RunProgramOn(ir::Context& ctx, const ir::Program& program,
                       const std::map<std::string, HostArray>& inputs, const RunOptions& options,
                       Machine& machine);
// False (with res->exit_code 2 and the report set) for options out of range.
bool CheckRunOptions(const RunOptions& options, RunResult* res);

// Parses "parallel", "random:SEED" or "pct:SEED[:DEPTH[:STEPS]]" into options;
// false (with *error) when malformed.
bool ParseSchedule(const std::string& text, RunOptions* options, std::string* error);

// The schedule of `options` in the ParseSchedule spelling ("random:7", "pct:7:3:64").
std::string ScheduleString(const RunOptions& options);

// Parses a byte count: digits with an optional binary suffix K, M, G or T
// ("4G" = 4 * 2^30), or "none" (0 = no limit). False (with *error) when
// malformed or larger than 2^63 - 1.
bool ParseByteSize(const std::string& text, int64_t* bytes, std::string* error);

}  // namespace pypto::sim
