// lower-host-tensor-collectives: the HOST rail of the pld.tensor.*
// collectives. In a host orchestrator, after materialize-comm-domain-scopes,
// every `pld.tensor.{allreduce, barrier, broadcast, reduce_scatter, allgather,
// all_to_all, all_to_all_v}` call becomes one dispatch of the prebuilt
// per-device kernel `builtin.tensor.<op>` (`allreduce_ring` for mode="ring")
// per device of its comm domain:
//
//   with pld.comm_domain(name="comm_d0", devices=[], slots=["buf", "sbuf"]):
//       ...
//       for r in pl.range(pld.system.world_size()):           # devices=[] (all)
//           pl.builtin.tensor.allreduce(data, sig, op=..., dtype=pl.FP32,
//               attrs={"device": r, "arg_directions": [pl.adir.inout, pl.adir.inout], ...})
//       out = data                                            # window-as-result
//
// (an explicit device list [a, b] gives one statement per device with
// `"device": a`). Same arguments, the pld kwargs the builtin takes plus
// `dtype=` (the data element type); attrs: device, arg_directions (two-arg
// collectives [inout, inout], barrier [inout], allgather / all_to_all
// [input, inout, inout], all_to_all_v [input, inout, inout, input, inout]) and
// a copy of the builtin kwargs. An assignment keeps its Var, re-bound to the
// window-as-result argument; a returned collective returns it.
//
// Static checks (every one a diagnostic at the call): every operand is a
// window view bound by materialize-comm-domain-scopes (input / send_counts
// too: the dispatch passes only windows); operands are pairwise-distinct
// allocations in one comm domain; signal (and recv_counts) rows >= the
// domain's device count when it is explicit; core_num <= the target's AIV
// core count; ring: Sum on FP32 only, signal [2 * (NR - 1) + 1, NR], at most
// 16 ranks, element count divisible by NR; broadcast root < device count;
// all_to_all_v outside for/while loops (also checked by materialize).
#include <fmt/format.h>

#include "host_comm.h"
#include "pass_util.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/comm.h"
#include "pypto/ir/mutator.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/printer.h"
#include "pypto/ops/ops.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

// AIV cores one builtin dispatch may use (one block per core): Ascend910B
// (a2a3) has 24 AI cores with 2 AIV each; the a5 profile is assumed 32 x 2.
int64_t AivCoreCount(const std::string& arch) { return arch == "a5" ? 64 : 48; }

const DistributedTensorType* DistOf(const Expr* e) { return As<DistributedTensorType>(e->type); }

std::string Shape(const TensorType* t) {
  std::string s = "[";
  for (size_t i = 0; i < t->shape.size(); ++i) s += (i ? ", " : "") + PrintExpr(t->shape[i]);
  return s + "]";
}

class HostCollectiveLowerer : public util::LoopDepthMutator {
 public:
  HostCollectiveLowerer(Context& ctx, DiagnosticEngine& diag)
      : LoopDepthMutator(ctx), diag_(diag), b_(ctx) {}

  const Stmt* Mutate_CommDomainScopeStmt(const CommDomainScopeStmt* s) override {
    scopes_.push_back(s);
    const Stmt* r = IRMutator::Mutate_CommDomainScopeStmt(s);
    scopes_.pop_back();
    return r;
  }

  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    auto* c = As<Call>(s->value);
    const host::CollectiveInfo* info = host::CollectiveOf(c);
    if (!info) return IRMutator::Mutate_AssignStmt(s);
    std::vector<const Stmt*> out;
    const Expr* result = Lower(c, *info, &out);
    if (!result) return s;
    const Var* var = Rebind(s->var, result);
    if (var != result)  // pre-SSA `x = op(x, ...)` needs no `x = x`
      out.push_back(ctx_.Make<AssignStmt>(var, result, s->span));
    return util::Seq(ctx_, std::move(out), s->span);
  }

  const Stmt* Mutate_EvalStmt(const EvalStmt* s) override {
    auto* c = As<Call>(s->expr);
    const host::CollectiveInfo* info = host::CollectiveOf(c);
    if (!info) return IRMutator::Mutate_EvalStmt(s);
    std::vector<const Stmt*> out;
    if (!Lower(c, *info, &out)) return s;
    return util::Seq(ctx_, std::move(out), s->span);
  }

  const Stmt* Mutate_ReturnStmt(const ReturnStmt* s) override {
    bool any = false;
    for (const Expr* v : s->values) any |= host::CollectiveOf(As<Call>(v)) != nullptr;
    if (!any) return IRMutator::Mutate_ReturnStmt(s);
    std::vector<const Stmt*> out;
    std::vector<const Expr*> values;
    for (const Expr* v : s->values) {
      auto* c = As<Call>(v);
      const host::CollectiveInfo* info = host::CollectiveOf(c);
      const Expr* r = info ? Lower(c, *info, &out) : MutateExpr(v);
      if (!r) return s;
      values.push_back(r);
    }
    out.push_back(ctx_.Make<ReturnStmt>(std::move(values), s->span));
    return util::Seq(ctx_, std::move(out), s->span);
  }

  // Reached only for collectives that are not a statement's whole value.
  const Expr* Mutate_Call(const Call* c) override {
    if (host::CollectiveOf(c))
      diag_.Error(c->span, fmt::format("{}: a host collective must be the whole value of an "
                                       "assignment, an expression statement or a return value; "
                                       "bind it to a variable first",
                                       c->OpName()));
    return IRMutator::Mutate_Call(c);
  }

 private:
  bool Fail(const Call* c, size_t arg, const std::string& msg) {
    // A Var's span is its definition: point at the call for those.
    const Expr* e = arg < c->args.size() ? c->args[arg] : nullptr;
    Span at = e && !AsVarLike(e) && e->span.IsKnown() ? e->span : c->span;
    diag_.Error(at, fmt::format("{}: {}", c->OpName(), msg));
    return false;
  }

  // The assignment's Var, re-typed when its window binding differs from the result's.
  const Var* Rebind(const Var* v, const Expr* result) {
    const Var* nv = MutateVarDef(v);
    auto* d = As<DistributedTensorType>(nv->type);
    auto* r = DistOf(result);
    if (!d || !r || d->window_buffer == r->window_buffer) return nv;
    const Var* m = ctx_.NewVar(
        v->name_hint,
        ctx_.Make<DistributedTensorType>(d->shape, d->dtype, d->view, r->window_buffer), v->span);
    Substitute(v, m);
    return m;
  }

  // The innermost enclosing comm-domain scope holding every buffer, or null.
  const CommDomainScopeStmt* ScopeOf(const std::vector<std::string>& bufs) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      bool all = true;
      for (const std::string& b : bufs)
        all &= std::find((*it)->slots.begin(), (*it)->slots.end(), b) != (*it)->slots.end();
      if (all) return *it;
    }
    return nullptr;
  }
  std::string DomainOf(const std::string& buf) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (std::find((*it)->slots.begin(), (*it)->slots.end(), buf) != (*it)->slots.end())
        return (*it)->name.empty() ? std::string("an unnamed domain") : "'" + (*it)->name + "'";
    return "no enclosing comm domain";
  }

  // Operands: bound windows, pairwise-distinct allocations, one domain.
  const CommDomainScopeStmt* CheckOperands(const Call* c) {
    std::vector<std::string> bufs;
    for (size_t i = 0; i < c->args.size(); ++i) {
      auto* d = DistOf(c->args[i]);
      std::string an(host::ArgName(*c, i));
      if (!d) {
        Fail(c, i,
             fmt::format("argument '{}' is {}; on the HOST rail every operand is passed to "
                         "the per-device builtin kernel, so it must be a window view "
                         "(pld.tensor.window of a pld.tensor.alloc_window_buffer "
                         "allocation)",
                         an, TypeToString(c->args[i]->type)));
        return nullptr;
      }
      if (d->window_buffer.empty()) {
        Fail(c, i,
             fmt::format("argument '{}' is not bound to a window allocation; run "
                         "materialize-comm-domain-scopes first",
                         an));
        return nullptr;
      }
      // An in-place allgather passes its window as input and target.
      const int* ip = c->op->in_place_args;
      bool in_place = c->op->InPlace(c->args) && static_cast<int>(i) == ip[1];
      for (size_t j = 0; j < bufs.size(); ++j)
        if (bufs[j] == d->window_buffer && !(in_place && static_cast<int>(j) == ip[0])) {
          Fail(c, i,
               fmt::format("arguments '{}' and '{}' are views of the same window "
                           "allocation '{}'; every operand of a host collective needs its "
                           "own pld.tensor.alloc_window_buffer (aliasing them races across "
                           "ranks)",
                           host::ArgName(*c, j), an, d->window_buffer));
          return nullptr;
        }
      bufs.push_back(d->window_buffer);
    }
    if (scopes_.empty()) {
      Fail(c, c->args.size(),
           "the host collective is not inside a comm-domain scope; run "
           "materialize-comm-domain-scopes first");
      return nullptr;
    }
    const CommDomainScopeStmt* scope = ScopeOf(bufs);
    if (!scope) {
      std::string where;
      for (const std::string& b : bufs)
        where += (where.empty() ? "" : ", ") + fmt::format("'{}' in {}", b, DomainOf(b));
      Fail(c, c->args.size(),
           fmt::format("its windows are in different comm domains ({}); every "
                       "operand of a host collective must be dispatched to "
                       "the same devices",
                       where));
    }
    return scope;
  }

  // Static capacity / layout rules of the builtin kernels.
  bool CheckStatic(const Call* c, const CommDomainScopeStmt* scope) {
    std::optional<int64_t> n;
    if (!scope->devices.empty()) n = static_cast<int64_t>(scope->devices.size());
    bool ring = c->op->BuiltinFor(c->kwargs) == ops::kBuiltinAllreduceRing;
    int sig = c->op->ArgIndex("signal");
    const auto* st = DistOf(c->args[sig]);
    if (ring) {
      const auto* t = DistOf(c->args[0]);
      int64_t rop = host::IntKwarg(*c, "op", 0);
      if (rop != static_cast<int64_t>(ReduceOp::kSum) || t->dtype != DataType::kFP32)
        return Fail(
            c, 0,
            fmt::format("mode=\"ring\" on the HOST rail supports only "
                        "pld.ReduceOp.Sum on pl.FP32 (got {} on {}); use the mesh "
                        "mode",
                        EnumValueName(EnumKind::kReduceOp, static_cast<int>(rop)).value_or("?"),
                        DTypeStr(t->dtype)));
      auto rows = st->rank() == 2 ? StaticInt(st->shape[0]) : std::nullopt;
      auto nr = st->rank() == 2 ? StaticInt(st->shape[1]) : std::nullopt;
      if (st->rank() != 2 || (rows && nr && *rows != 2 * (*nr - 1) + 1))
        return Fail(c, sig,
                    fmt::format("argument 'signal' has shape {}; on the HOST rail a ring "
                                "signal is [2 * (NR - 1) + 1, NR] (one row per ring round "
                                "plus the return-barrier row)",
                                Shape(st)));
      if (!nr) nr = n;
      if (nr && n && *nr != *n)
        return Fail(c, sig,
                    fmt::format("argument 'signal' has {} columns but the comm domain "
                                "has {} devices; a ring signal is [2 * (NR - 1) + 1, NR] "
                                "with NR the device count",
                                *nr, *n));
      if (nr && *nr > ir::kMaxHostRingRanks)
        return Fail(c, sig,
                    fmt::format("mode=\"ring\" on the HOST rail supports at most {} "
                                "ranks, got {}; use the mesh mode",
                                ir::kMaxHostRingRanks, *nr));
      std::optional<int64_t> numel = 1;
      for (const Expr* d : t->shape) {
        auto v = StaticInt(d);
        numel = v && numel ? std::optional<int64_t>(*numel * *v) : std::nullopt;
      }
      if (nr && numel && *nr > 0 && *numel % *nr != 0)
        return Fail(c, 0,
                    fmt::format("argument 'target' has {} elements, which the {} ranks of "
                                "the ring do not divide; the HOST ring kernel needs an "
                                "element count divisible by NR",
                                *numel, *nr));
      return true;
    }
    if (c->Is(ops::kPldAllreduce)) {
      int64_t core_num = host::IntKwarg(*c, "core_num", 1);
      int64_t cap = AivCoreCount(ctx_.target_arch);
      if (core_num > cap)
        return Fail(c, c->args.size(),
                    fmt::format("core_num={} exceeds the {} AIV cores of "
                                "target {} (one block per AIV core)",
                                core_num, cap, ctx_.target_arch));
    }
    std::vector<int> counted = {sig};
    if (int rc = c->op->ArgIndex("recv_counts"); rc >= 0) counted.push_back(rc);
    for (int k : counted) {
      const auto* t = DistOf(c->args[k]);
      auto rows = t->rank() >= 1 ? StaticInt(t->shape[0]) : std::nullopt;
      if (n && rows && *rows < *n)
        return Fail(c, k,
                    fmt::format("argument '{}' has {} rows but its comm domain has {} "
                                "devices; it needs one row per participating device",
                                host::ArgName(*c, k), *rows, *n));
    }
    if (c->Is(ops::kPldBroadcast)) {
      int64_t root = host::IntKwarg(*c, "root", 0);
      if (n && root >= *n)
        return Fail(c, c->args.size(),
                    fmt::format("root={} but the comm domain has {} devices; "
                                "the root is a rank of the domain (< {})",
                                root, *n, *n));
    }
    return true;
  }

  // Emits the per-device dispatches into `out`; returns the window-as-result
  // argument (nullptr after reporting an error).
  const Expr* Lower(const Call* c0, const host::CollectiveInfo& info,
                    std::vector<const Stmt*>* out) {
    bool changed = false;
    std::vector<const Expr*> args = MutateExprs(c0->args, &changed);
    const Call* c = changed ? ctx_.Make<Call>(c0->op, std::string(), args, c0->kwargs, c0->attrs,
                                              c0->type, c0->span)
                            : c0;
    if (info.op->Is(ops::kPldAllreduce) && c->args.size() < 2) {
      Fail(c, 0, "the host allreduce has no signal; run synthesize-allreduce-signals first");
      return nullptr;
    }
    if (info.op->Is(ops::kPldAllToAllV) && loop_depth_ > 0) {
      Fail(c, c->args.size(),
           "not supported inside a for/while loop of a host orchestrator (its "
           "single-use signal protocol cannot be reused across iterations); "
           "call it outside the loop");
      return nullptr;
    }
    const CommDomainScopeStmt* scope = CheckOperands(c);
    if (!scope || !CheckStatic(c, scope)) return nullptr;
    const OpDef* bop = &host::BuiltinOf(*c);
    const auto* data = AsTensorTypeLike(c->args[info.result_arg]->type);
    AttrList kwargs, copies;
    for (const KwargSpec& k : bop->kwargs) {
      const Attr* a = k.name == "dtype" ? nullptr : FindAttr(c->kwargs, k.name);
      if (k.name == "dtype") {
        kwargs.push_back({"dtype", Attr::DType(data->dtype)});
      } else if (a) {
        kwargs.push_back({k.name, *a});
      } else if (k.enum_kind != EnumKind::kCount && k.default_value) {
        kwargs.push_back({k.name, *k.default_value});  // op=pld.ReduceOp.Sum spelled out
      } else {
        continue;
      }
      const Attr& v = kwargs.back().value;
      copies.push_back({k.name, k.enum_kind != EnumKind::kCount && v.kind == Attr::Kind::kInt
                                    ? Attr::Enum(k.enum_kind, static_cast<int>(v.i))
                                    : v});
    }
    std::vector<Attr> dirs;
    for (ArgDirection d : info.dirs)
      dirs.push_back(Attr::Enum(EnumKind::kArgDirection, static_cast<int>(d)));
    auto dispatch = [&](Attr device) -> bool {
      AttrList attrs = {{"device", device}, {"arg_directions", Attr::List(dirs)}};
      attrs.insert(attrs.end(), copies.begin(), copies.end());
      b_.SetSpan(c->span);
      const Call* bc = b_.TryOp(bop->handle, c->args, kwargs, std::move(attrs), diag_);
      if (!bc) return false;
      b_.Eval(bc);
      return true;
    };
    b_.SetSpan(c->span);
    b_.Begin();
    bool ok = true;
    if (!scope->devices.empty()) {
      for (int64_t d : scope->devices) ok = ok && dispatch(Attr::Int(d));
    } else {
      b_.For("r", b_.Int(0), b_.Op(ops::kPldWorldSize, {}), b_.Int(1), {},
             [&](const Var* r, const std::vector<const IterArg*>&) { ok = dispatch(Attr::Of(r)); });
    }
    const SeqStmt* seq = b_.End();
    if (!ok) return nullptr;
    out->insert(out->end(), seq->stmts.begin(), seq->stmts.end());
    return c->args[info.result_arg];
  }

  DiagnosticEngine& diag_;
  IRBuilder b_;
  std::vector<const CommDomainScopeStmt*> scopes_;
};

class LowerHostTensorCollectivesPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine& diag) override {
    int errors = diag.ErrorCount();
    const Program* result = util::RewriteBodies(
        ctx, prog, host::IsHostOrch,
        [&](const Function& f) { return HostCollectiveLowerer(ctx, diag).MutateStmt(f.body); });
    return diag.ErrorCount() > errors ? nullptr : result;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateLowerHostTensorCollectivesPass() {
  return std::make_unique<LowerHostTensorCollectivesPass>();
}

}  // namespace pypto::passes
