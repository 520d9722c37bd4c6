// The IR interpreter behind pypto-run: statements, expressions, function calls
// and host dispatch, plus the per-op semantic table (one handler per op handle,
// registered by src/sim/semantics/*.cc) and the memory-access helpers every
// handler uses (bounds checks, valid regions, race-detector hooks, stats).
//
// Threads: an Exec is one logical thread's interpreter state. The host Exec
// queues `self.f(..., device=r)` calls and host collectives per rank; Flush()
// runs every rank's queue in program order on that rank's device worker and
// returns when all are done (the host waits for all ranks at the end).
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pypto/ir/comm.h"
#include "pypto/ir/context.h"
#include "pypto/ir/enums.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ops/ops.h"
#include "pypto/sim/detectors.h"
#include "pypto/sim/machine.h"
#include "pypto/sim/run.h"
#include "pypto/sim/schedule.h"
#include "pypto/sim/trace.h"
#include "pypto/sim/value.h"

namespace pypto::sim {

class Interpreter;
class Exec;

using OpFn = Value (*)(Exec& ex, const ir::Call& call, std::vector<Value>& args);

// How the interpreter schedules a call of the op around its kernel.
enum class OpKind : uint8_t {
  kLocal,       // this thread's values only (tile.*, array.*, tensor.view, ...)
  kHostData,    // reads or writes tensor data: on the host, queued device work lands first
  kComm,        // a pld.* / builtin.* primitive: a schedule switch point, traced as "comm"
  kCollective,  // a cross-rank collective (comm); a host call becomes one task per rank
};

struct OpEntry {
  OpFn fn = nullptr;
  OpKind kind = OpKind::kLocal;
};

// The executor's per-op table, indexed by handle id (pypto/ops/ops.h). Filled
// once by the Register*Semantics functions below; every registered op has an
// entry or a reason in `unsupported` (tests/unit/sim_coverage_test.cc).
struct OpTable {
  std::array<OpEntry, ops::kOpCount> entries{};
  // Ops the executor deliberately does not run, with the reason printed in the
  // "not supported by pypto-run" error (declared in interpreter.cc, next to
  // GetOpTable); empty for an op that has an entry.
  std::array<std::string_view, ops::kOpCount> unsupported{};

  void Set(ir::OpHandle h, OpFn fn, OpKind kind = OpKind::kLocal) { entries[h.id] = {fn, kind}; }
  const OpEntry& operator[](ir::OpHandle h) const { return entries[h.id]; }
};
const OpTable& GetOpTable();

void RegisterTensorSemantics(OpTable& t);
void RegisterTileSemantics(OpTable& t);
void RegisterDistributedSemantics(OpTable& t);
void RegisterCollectiveSemantics(OpTable& t);
void RegisterArraySemantics(OpTable& t);  // semantics/array.cc
void RegisterCubeSemantics(OpTable& t);   // semantics/cube.cc

// The report of a rank whose run stopped because other processes failed
// (`status`: every rank's exit status from Transport::AgreeStatus).
std::string RemoteFailure(const std::vector<int>& status);

// Scalar arithmetic on values (Python semantics for // and %; wraps to `dt`).
Value ScalarBinary(ir::BinaryOp op, const Value& a, const Value& b, DataType dt, bool* div_zero);
Value ScalarUnary(ir::UnaryOp op, const Value& a, DataType dt);
Value CastScalar(const Value& a, DataType dt);

// A queued unit of device work: a function call or a host-level collective.
struct Task {
  const ir::Function* fn = nullptr;
  const ir::Call* call = nullptr;  // the dispatching call / the collective
  std::vector<Value> args;
  std::vector<uint32_t> clock;
};

struct Frame {
  const ir::Function* fn = nullptr;
  std::unordered_map<const ir::Var*, Value> env;
  std::vector<Value> yielded;
  std::vector<Value> ret;
};

// A defer_wait condition: the task completes once cell >= expected.
struct DeferredCond {
  int alloc;
  int device;
  int64_t byte_off;
  int64_t expected;
  std::string what;
  Span span;
};

// A task result inside a pl.manual_scope (Value::Kind::kFuture): set once by
// the task's thread (`v`, then `ready`); a tuple element of another future when
// `parent` is set. Readers wait for `ready` (see Interpreter::Force).
struct FutureCell {
  std::atomic<bool> ready{false};
  Value v;
  std::vector<uint32_t> clock;         // the task's vector clock at completion
  std::shared_ptr<FutureCell> parent;  // element `index` of parent's tuple value
  int64_t index = -1;
  std::string task;  // "task 'wait_tid' (f.pir:12)" for reports
};

struct ManualRun;  // the tasks of one pl.manual_scope being run (manual_scope.cc)

class Exec {
 public:
  Exec(Interpreter& in, LogicalThread& t);
  Interpreter& in;
  LogicalThread& t;
  Machine& m;
  Scheduler& sched;
  RaceDetector& races;
  Frame* frame = nullptr;
  std::vector<std::vector<Task>>* queues = nullptr;  // host thread only
  std::vector<DeferredCond> deferred;
  const ir::Call* cur_call = nullptr;  // the op being executed (for errors)
  Span stmt_span;                      // the statement being executed (for errors)
  ManualRun* manual = nullptr;         // set while the body of a pl.manual_scope submits tasks
  TraceNote* note = nullptr;           // the traced op's facts (set only while tracing)
  // Nested function calls on this thread. The verifier rejects recursion; the
  // bound keeps an unverified program (pypto.sim.run(verify=False), the C++
  // API) from overflowing the native stack: an error instead of a SIGSEGV.
  static constexpr int kMaxCallDepth = 128;
  int call_depth = 0;

  int device() const { return t.device; }
  bool is_host() const { return t.device < 0; }
  std::string FunctionName() const;

  // Throws SimError "<op>: <msg>" at the current call's span.
  [[noreturn]] void Fail(const std::string& msg, int code = 1) const;

  // Op-argument helpers. Arg() finds an argument by the op's registered name
  // (nullptr when the optional argument is absent).
  static const Value* Arg(const ir::Call& c, std::vector<Value>& args, std::string_view name);
  static int64_t KwInt(const ir::Call& c, std::string_view name, int64_t def);
  static bool KwBool(const ir::Call& c, std::string_view name, bool def);
  static std::string KwStr(const ir::Call& c, std::string_view name, const std::string& def);
  static std::optional<DataType> KwDType(const ir::Call& c, std::string_view name);
  // An enum kwarg (the comm ABI enums of pypto/ir/comm.h, pl.PadValue): the
  // payload converted once, checked against the enum's declared members (an
  // out-of-range payload, which the op's kwarg schema rejects, is an internal error).
  template <typename E>
  E KwEnum(const ir::Call& c, std::string_view name, E def) const;
  const TensorVal& Tensor(const Value& v, const char* what) const;
  const TileVal& Tile(const Value& v, const char* what) const;
  int64_t Int(const Value& v, const char* what) const;
  std::vector<int64_t> Ints(const Value& v, const char* what) const;  // tuple of ints

  // Memory. `device` selects which rank's copy of a window view is addressed
  // (ignored for host tensors). Regions are boxes in view coordinates; data is
  // row-major over `ext`. Bounds are checked against the view shape and the
  // storage; violations are errors naming the op, rank and source line.
  // The storage of `v` (rank `device`'s copy of a window); null for a window
  // copy another process holds (reached through Machine::transport()).
  uint8_t* Base(const TensorVal& v, int device) const;
  void CheckRegion(const TensorVal& v, int device, const std::vector<int64_t>& off,
                   const std::vector<int64_t>& ext, const char* role) const;
  // The argument-direction guards of v (arg_directions.h) on an access of the
  // box: an error on a write under pl.In or a read of unwritten pl.Out bytes.
  void JudgeDirections(const TensorVal& v, const std::vector<int64_t>& off,
                       const std::vector<int64_t>& ext, bool write, const char* role);
  std::vector<double> ReadRegion(const TensorVal& v, int device, const std::vector<int64_t>& off,
                                 const std::vector<int64_t>& ext, const char* role);
  void WriteRegion(const TensorVal& v, int device, const std::vector<int64_t>& off,
                   const std::vector<int64_t>& ext, const double* data, bool atomic_add,
                   const char* role);
  // With RunOptions::check_alignment: a GM transfer (tile.load / store, remote
  // load / store, put / get) whose first element is not 32-byte aligned in its
  // storage is an error naming the op, rank, line and byte address. Empty boxes
  // move nothing and are not judged.
  void CheckTransferAlignment(const TensorVal& v, const std::vector<int64_t>& off,
                              const std::vector<int64_t>& ext, const char* role) const;
  // The same as raw bytes of v.dtype, packed row-major over `ext` (contiguous
  // rows are one memcpy; an atomic write adds element by element).
  void ReadBytes(const TensorVal& v, int device, const std::vector<int64_t>& off,
                 const std::vector<int64_t>& ext, uint8_t* out, const char* role);
  void WriteBytes(const TensorVal& v, int device, const std::vector<int64_t>& off,
                  const std::vector<int64_t>& ext, const uint8_t* data, bool atomic_add,
                  const char* role);
  // Window byte offset of element `idx` of a window view (for signal cells).
  int64_t CellByteOffset(const TensorVal& v, const std::vector<int64_t>& idx,
                         const char* role) const;
  // Maps a domain-relative peer rank of window view `v` to a device (errors when out of range).
  int PeerDevice(const TensorVal& v, int64_t peer) const;
  int MyDomainRank(const TensorVal& v) const;
  void Point();  // a schedule switch point

 private:
  template <typename F>
  void WriteRows(const TensorVal& v, int dev, const std::vector<int64_t>& off,
                 const std::vector<int64_t>& ext, bool atomic_add, const char* role,
                 const uint8_t* packed, F&& value);
  void TrackRow(const TensorVal& v, int dev, int64_t e, int64_t count, int64_t stride, bool write,
                bool atomic);
  void CountTraffic(const TensorVal& v, int dev, int64_t bytes, bool sent);
};

// The EnumKind describing enum type E (its members, its DSL spelling).
template <typename E>
inline constexpr ir::EnumKind kEnumKindOf = ir::EnumKind::kCount;
template <>
inline constexpr ir::EnumKind kEnumKindOf<ir::NotifyOp> = ir::EnumKind::kNotifyOp;
template <>
inline constexpr ir::EnumKind kEnumKindOf<ir::WaitCmp> = ir::EnumKind::kWaitCmp;
template <>
inline constexpr ir::EnumKind kEnumKindOf<ir::AtomicType> = ir::EnumKind::kAtomicType;
template <>
inline constexpr ir::EnumKind kEnumKindOf<ir::ReduceOp> = ir::EnumKind::kReduceOp;
template <>
inline constexpr ir::EnumKind kEnumKindOf<ir::PadValue> = ir::EnumKind::kPadValue;

template <typename E>
E Exec::KwEnum(const ir::Call& c, std::string_view name, E def) const {
  static_assert(kEnumKindOf<E> != ir::EnumKind::kCount, "kEnumKindOf<E> is not declared");
  int64_t v = KwInt(c, name, static_cast<int64_t>(def));
  if (v != static_cast<int>(v) || !ir::EnumValueInRange(kEnumKindOf<E>, static_cast<int>(v)))
    Fail("internal: " + std::string(name) + "=" + std::to_string(v) + " is not a " +
         std::string(ir::GetEnumDesc(kEnumKindOf<E>).prefix) + " value");
  return static_cast<E>(v);
}

class Interpreter {
 public:
  Interpreter(ir::Context& ctx, const ir::Program& p, Machine& m, Scheduler& s, RaceDetector& r,
              Trace& tr, const RunOptions& o);

  ir::Context& ctx;
  const ir::Program& program;
  Machine& machine;
  Scheduler& sched;
  RaceDetector& races;
  Trace& trace;
  const RunOptions& opts;
  std::unordered_map<const ir::Var*, Value> globals;  // dynamic dims (NR, ...)
  std::vector<std::string> residue_reports;           // --check-signals findings
  std::mutex residue_mu;

  // `call`: the call expression (for a dispatched task, the dispatching call;
  // its span names errors), null for entry points.
  Value CallFunction(Exec& ex, const ir::Function& f, std::vector<Value> args,
                     const ir::Call* call = nullptr);
  // Binds the dynamic dims of f's tensor parameters in `fr` from the tensors passed.
  void BindParamDims(Frame& fr, const ir::Function& f, const ir::Call* call);
  // Runs every queued rank task and waits for all of them (with a transport:
  // this process's rank's tasks, then the other ranks' host writes are merged).
  void Flush(Exec& host);
  Value Eval(Exec& ex, const ir::Expr* e);
  std::string FormatSpan(Span s) const;                           // "file:line"
  std::string RenderError(Span s, const std::string& msg) const;  // full diagnostic
  // Checks a signal allocation is all zero on every device of its domain.
  void CheckSignalZero(int alloc, const std::string& when);

 private:
  enum class Flow { kNormal, kBreak, kContinue, kReturn };
  Flow ExecStmt(Exec& ex, const ir::Stmt* s);
  Flow ExecFor(Exec& ex, const ir::ForStmt* s);
  Flow ExecWhile(Exec& ex, const ir::WhileStmt* s);
  void ExecSpawn(Exec& ex, const ir::ScopeStmt* s, int64_t n, bool split, const ir::Var* var);
  Value EvalCall(Exec& ex, const ir::Call* c);
  Value CallOp(Exec& ex, const ir::Call* c, std::vector<Value>& args);
  Value Dispatch(Exec& ex, const ir::Call* c, const ir::Function& f, std::vector<Value> args);
  // subworker.cc: a HOST SubWorker call, run on the host through opts.subworker.
  Value CallSubWorker(Exec& ex, const ir::Call* c, const ir::Function& f, std::vector<Value> args);
  void RunWorker(Exec& ex, std::vector<Task>& tasks);
  // Runs the queues of every rank (only < 0) or of rank `only`, then clears all.
  void RunQueues(Exec& host, int only);
  // Records the span [ts, now) of ex's thread as an event (no-op when not tracing);
  // op-level categories take the facts of *ex.note.
  void TraceSpan(Exec& ex, const std::string& name, const char* cat, int64_t ts, Span sp);
  // Blocks until every defer_wait condition registered by `ex` holds.
  void WaitDeferred(Exec& ex, const std::string& function);
  void Bind(Exec& ex, const ir::Var* v, Value val);
  // manual_scope.cc: `with pl.manual_scope():` (tasks run as threads ordered
  // only by deps=[...] and by the task results they read).
  Flow ExecManualScope(Exec& ex, const ir::ManualScopeStmt* s);
  // While a manual scope's body runs: records `s` as a task when it is one.
  bool SubmitTask(Exec& ex, const ir::Stmt* s);
  void RunTask(Exec& kx, ManualRun& run, size_t index);
  // A value with every future in it resolved (waits; an error while submitting).
  Value Force(Exec& ex, const Value& v, Span at);
  // Eval that passes futures through (variables, tuple items of a future).
  Value EvalLazy(Exec& ex, const ir::Expr* e);
};

}  // namespace pypto::sim
