// CheckCollectiveOperands: see pypto/sim/collective_checks.h. The op deducers
// check each layout against itself (rows against columns, when static); here
// the layout meets the comm domain's actual rank count.
#include "pypto/sim/collective_checks.h"

#include <fmt/format.h>

#include "pypto/ir/comm.h"
#include "pypto/ops/ops.h"
#include "pypto/sim/interpreter.h"

namespace pypto::sim {

namespace {

struct Checker {
  Exec& ex;
  const ir::Call& call;
  std::vector<Value>& args;
  int64_t n;  // ranks of the comm domain

  const TensorVal* Operand(const char* name) {
    const Value* v = Exec::Arg(call, args, name);
    return v && v->kind == Value::Kind::kTensor ? v->tensor.get() : nullptr;
  }
  std::string Describe(const char* role, const TensorVal& t) {
    std::string view = t.name.empty() || t.name == role ? "" : fmt::format(" ('{}')", t.name);
    std::string win = t.IsWindow() ? fmt::format(" of window '{}'", ex.m.alloc(t.alloc).name) : "";
    return fmt::format("'{}'{}{}", role, view, win);
  }
  [[noreturn]] void Fail(const char* role, const TensorVal& t, const std::string& want,
                         const std::string& why) {
    ex.Fail(fmt::format("{} has shape {} but the comm domain has {} rank{}; expected {} ({})",
                        Describe(role, t), ShapeString(t.shape), n, n == 1 ? "" : "s", want, why));
  }
  // [P] or [P, 1]: one barrier cell per rank.
  void Lanes(const char* role, bool allow_rank1) {
    const TensorVal* t = Operand(role);
    if (!t) return;
    bool ok = (t->rank() == 2 && t->shape[1] == 1) || (allow_rank1 && t->rank() == 1);
    if (ok && t->shape[0] == n) return;
    Fail(role, *t, allow_rank1 ? fmt::format("[{}] or [{}, 1]", n, n) : fmt::format("[{}, 1]", n),
         "one cell per rank of the domain");
  }
  // Mesh allreduce: lane [rank] or [rank, block] of a [P] / [P, stride] signal.
  void Mesh(int64_t core_num) {
    const TensorVal* t = Operand("signal");
    if (!t) return;  // synthesized by the lowering; the whole operation needs none
    if (t->rank() == 1 && t->shape[0] >= n && core_num == 1) return;
    if (t->rank() == 2 && t->shape[0] >= n && t->shape[1] >= core_num) return;
    Fail("signal", *t,
         core_num == 1 ? fmt::format("[{}] or [{}, stride] (at least {} rows)", n, n, n)
                       : fmt::format("[{}, stride] with stride >= core_num ({})", n, core_num),
         "one lane per rank and core");
  }
  // Ring allreduce: cell [row, rank], one row per round (plus the HOST
  // builtin's return-barrier row).
  void Ring(bool host) {
    const TensorVal* t = Operand("signal");
    if (!t) return;
    int64_t rounds = 2 * (n - 1);
    bool ok = t->rank() == 2 && t->shape[1] == n &&
              (host ? t->shape[0] == rounds + 1 : t->shape[0] >= rounds && t->shape[0] > 0);
    if (!ok)
      Fail("signal", *t,
           host ? fmt::format("[2 * (P - 1) + 1, P] = [{}, {}]", rounds + 1, n)
                : fmt::format("[2 * (P - 1), P] = [{}, {}]", rounds, n),
           host ? "one row per ring round plus the return-barrier row, one cell per rank"
                : "one row per ring round, one cell per rank");
    if (host && n > ir::kMaxHostRingRanks)
      ex.Fail(fmt::format(
          "the ring runs on {} ranks but mode=\"ring\" on the HOST rail supports at most {}; "
          "use the mesh mode",
          n, ir::kMaxHostRingRanks));
  }
  // [P, SIZE]: one row per rank.
  void Rows(const char* role) {
    const TensorVal* t = Operand(role);
    if (!t) return;
    if (t->rank() >= 1 && t->shape[0] == n) return;
    Fail(role, *t, fmt::format("[{}, ...]", n), "one row per rank");
  }
};

}  // namespace

void CheckCollectiveOperands(Exec& ex, const ir::Call& call, std::vector<Value>& args,
                             const Domain& d) {
  Checker c{ex, call, args, static_cast<int64_t>(d.devices.size())};
  bool host = !ex.frame || !ex.frame->fn;  // a HOST collective runs as a rank task
  if (call.Is(ops::kPldAllreduce)) {
    if (Exec::KwStr(call, "mode", "mesh") == "ring") return c.Ring(host);
    return c.Mesh(Exec::KwInt(call, "core_num", 1));
  }
  if (call.Is(ops::kBuiltinAllreduce)) return c.Mesh(Exec::KwInt(call, "core_num", 1));
  if (call.Is(ops::kBuiltinAllreduceRing)) return c.Ring(true);
  if (call.Is(ops::kPldBarrier) || call.Is(ops::kBuiltinBarrier) || call.Is(ops::kPldBroadcast) ||
      call.Is(ops::kBuiltinBroadcast))
    return c.Lanes("signal", true);
  if (call.Is(ops::kPldReduceScatter) || call.Is(ops::kBuiltinReduceScatter)) {
    c.Lanes("signal", true);
    return c.Rows("target");
  }
  if (call.Is(ops::kPldAllgather) || call.Is(ops::kBuiltinAllgather)) {
    c.Lanes("signal", true);
    return c.Rows("target");
  }
  if (call.Is(ops::kPldAllToAll) || call.Is(ops::kBuiltinAllToAll)) {
    c.Lanes("signal", true);
    c.Rows("input");
    return c.Rows("target");
  }
  if (call.Is(ops::kPldAllToAllV) || call.Is(ops::kBuiltinAllToAllV)) {
    c.Lanes("signal", false);
    c.Lanes("send_counts", true);
    c.Lanes("recv_counts", false);
  }
}

}  // namespace pypto::sim
