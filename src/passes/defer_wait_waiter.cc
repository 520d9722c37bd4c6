// CheckDeferWaitWaiters: see defer_wait_waiter.h.
#include "defer_wait_waiter.h"

#include <fmt/format.h>

#include <optional>

#include "ir_walk.h"
#include "pypto/ir/comm.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/visitor.h"
#include "pypto/ops/ops.h"

namespace pypto::passes {

using namespace ir;

namespace {

const char* const kWaiter = "a pld.system.defer_wait waiter";

// The first registration of `body`, or null.
const Call* FirstRegistration(const Stmt* body) {
  const Call* found = nullptr;
  walk::ForEachCall(body, [&](const Call* c, const Stmt*) {
    if (!found && c->Is(ops::kPldDeferWait)) found = c;
  });
  return found;
}

bool Registers(const Stmt* body) { return FirstRegistration(body) != nullptr; }

// The launch attrs a waiter must not carry (on its scope, kernel or call).
void CheckLaunchAttrs(const AttrList& attrs, Span span, DiagnosticEngine& diag) {
  if (FindAttr(attrs, "predicate"))
    diag.Error(span, fmt::format("{} takes no predicate=: it must always register", kWaiter));
  if (const Attr* a = FindAttr(attrs, "allow_early_resolve");
      a && a->kind == Attr::Kind::kBool && a->b)
    diag.Error(span, fmt::format("{} must not set allow_early_resolve=True: a consumer "
                                 "could be picked up before the counters are ready",
                                 kWaiter));
}

void CheckCount(std::optional<int64_t> n, Span span, DiagnosticEngine& diag) {
  if (n && *n > kMaxDeferredConditions)
    diag.Error(span, fmt::format("{} registers {} conditions; a task registers at most {}", kWaiter,
                                 *n, kMaxDeferredConditions));
}

// Ops a waiter may run besides defer_wait: scalar queries of the communicator.
bool IsBookkeeping(const Call& c) {
  return c.Is(ops::kPldGetCommCtx) || c.Is(ops::kPldRank) || c.Is(ops::kPldNranks) ||
         c.Is(ops::kPldWorldSize);
}

// The body rules of one waiter scope; returns its static registration count
// (nullopt once an error is reported).
class WaiterBody {
 public:
  explicit WaiterBody(DiagnosticEngine& d) : diag_(d) {}

  std::optional<int64_t> Count(const Stmt* s) {
    if (!s) return 0;
    switch (s->kind) {
      case NodeKind::kSeqStmt: {
        int64_t n = 0;
        for (const Stmt* x : static_cast<const SeqStmt*>(s)->stmts) {
          auto k = Count(x);
          if (!k) return std::nullopt;
          n += *k;
        }
        return n;
      }
      case NodeKind::kIfStmt: {
        auto* i = static_cast<const IfStmt*>(s);
        if (!Exprs(s)) return std::nullopt;
        auto a = Count(i->then_body), b = Count(i->else_body);
        if (!a || !b) return std::nullopt;
        return std::max(*a, *b);
      }
      case NodeKind::kForStmt:
      case NodeKind::kWhileStmt: {
        if (!Exprs(s)) return std::nullopt;
        const Stmt* body = s->kind == NodeKind::kForStmt ? static_cast<const ForStmt*>(s)->body
                                                         : static_cast<const WhileStmt*>(s)->body;
        auto n = Count(body);
        if (!n) return std::nullopt;
        if (*n == 0) return 0;  // registers nothing: any trip count
        std::optional<int64_t> trips;
        if (auto* f = As<ForStmt>(s)) {
          auto lo = StaticInt(f->start), hi = StaticInt(f->stop), st = StaticInt(f->step);
          if (lo && hi && st && *st > 0) trips = std::max<int64_t>(0, (*hi - *lo + *st - 1) / *st);
        }
        if (!trips) {
          diag_.Error(s->span, fmt::format("{}: a loop that registers conditions needs a static "
                                           "trip count (a task registers at most {})",
                                           kWaiter, kMaxDeferredConditions));
          return std::nullopt;
        }
        return *trips * *n;
      }
      case NodeKind::kAssignStmt:
      case NodeKind::kEvalStmt:
      case NodeKind::kYieldStmt:
      case NodeKind::kReturnStmt: {
        if (!Exprs(s)) return std::nullopt;
        int64_t n = 0;
        walk::ForEachOwnExpr(s, [&](const Expr* e) {
          walk::ForEachExpr(e, [&](const Expr* x) {
            if (auto* c = As<Call>(x); c && c->Is(ops::kPldDeferWait)) ++n;
          });
        });
        return n;
      }
      default:
        diag_.Error(s->span, fmt::format("{}: only registrations and scalar bookkeeping may run "
                                         "in the waiter; move this statement to another task",
                                         kWaiter));
        return std::nullopt;
    }
  }

 private:
  // The calls a statement owns: defer_wait and bookkeeping only.
  bool Exprs(const Stmt* s) {
    bool ok = true;
    walk::ForEachOwnExpr(s, [&](const Expr* e) {
      walk::ForEachExpr(e, [&](const Expr* x) {
        auto* c = As<Call>(x);
        if (!ok || !c || c->Is(ops::kPldDeferWait) || (c->op && IsBookkeeping(*c))) return;
        std::string what = c->op ? c->op->name : "a call of function '" + c->callee + "'";
        diag_.Error(c->span, fmt::format("{}: {} is not allowed between registrations; a waiter "
                                         "only registers conditions and does scalar bookkeeping "
                                         "(no tensor.read, payload, cache or communication op)",
                                         kWaiter, what));
        ok = false;
      });
    });
    return ok;
  }

  DiagnosticEngine& diag_;
};

// A visitor that knows how many pl.at / pl.spmd / pl.split_aiv / hierarchy
// scopes enclose the node it is at (depth_).
class ScopeDepthVisitor : public IRVisitor {
 public:
  void Visit_InCoreScopeStmt(const InCoreScopeStmt* s) override { Nested(s); }
  void Visit_SpmdScopeStmt(const SpmdScopeStmt* s) override { Nested(s); }
  void Visit_SplitAivScopeStmt(const SplitAivScopeStmt* s) override { Nested(s); }
  void Visit_HierarchyScopeStmt(const HierarchyScopeStmt* s) override { Nested(s); }

 protected:
  template <class S>
  void Nested(const S* s) {
    ++depth_;
    IRVisitor::VisitChildren(s);
    --depth_;
  }
  int depth_ = 0;
};

class WaiterFinder : public ScopeDepthVisitor {
 public:
  explicit WaiterFinder(DiagnosticEngine& d) : diag_(d) {}

  void Visit_InCoreScopeStmt(const InCoreScopeStmt* s) override {
    if (Registers(s->body)) Check(*s);
    Nested(s);
  }

 private:
  void Check(const InCoreScopeStmt& s) {
    if (depth_ > 0)
      diag_.Error(s.span, fmt::format("{} must be a top-level pl.at(level=pl.Level.CORE_GROUP) "
                                      "task (single block), not inside pl.spmd, pl.split_aiv or "
                                      "another scope",
                                      kWaiter));
    if (s.split != SplitMode::kNone)
      diag_.Error(s.span, fmt::format("{} is a pure-AIV single-block task; split= is not allowed",
                                      kWaiter));
    CheckLaunchAttrs(s.attrs, s.span, diag_);
    CheckCount(WaiterBody(diag_).Count(s.body), s.span, diag_);
  }

  DiagnosticEngine& diag_;
};

// The calls of function `callee` in a body, each with whether it sits inside a
// pl.spmd / pl.split_aiv / pl.at / hierarchy scope.
class CallSites : public ScopeDepthVisitor {
 public:
  explicit CallSites(const std::string& callee) : callee_(callee) {}
  std::vector<std::pair<const Call*, bool>> calls;

  void Visit_Call(const Call* c) override {
    if (c->callee == callee_) calls.push_back({c, depth_ > 0});
    IRVisitor::Visit_Call(c);
  }

 private:
  const std::string& callee_;
};

// The revalidation of a kernel carrying the waiter mark, and of its calls.
void CheckMarkedWaiter(const Program& prog, const Function& k, DiagnosticEngine& diag) {
  if (k.func_type != FunctionType::kInCore && k.func_type != FunctionType::kAIV)
    diag.Error(
        k.span,
        fmt::format(
            "{} ('{}', marked {}) is a pure-AIV single-block task; a {} "
            "function cannot be one",
            kWaiter, k.name, kDeferWaitWaiterAttr,
            EnumValueName(EnumKind::kFunctionType, static_cast<int>(k.func_type)).value_or("?")));
  if (const Attr* sp = FindAttr(k.attrs, "split");
      sp && sp->i != static_cast<int>(SplitMode::kNone))
    diag.Error(k.span,
               fmt::format("{} is a pure-AIV single-block task; split= is not allowed", kWaiter));
  CheckLaunchAttrs(k.attrs, k.span, diag);
  CheckCount(WaiterBody(diag).Count(k.body), k.span, diag);
  for (const Function* g : prog.functions) {
    CallSites sites(k.name);
    sites.VisitStmt(g->body);
    for (const auto& [c, nested] : sites.calls) {
      if (g->IsKernel() || g->IsHostOrchestrator() || nested)
        diag.Error(c->span, fmt::format("{} ('{}') must be launched as a top-level task of an "
                                        "orchestration function (single block), not from '{}'{}",
                                        kWaiter, k.name, g->name,
                                        nested ? " inside pl.spmd, pl.split_aiv or pl.at" : ""));
      CheckLaunchAttrs(c->attrs, c->span, diag);
    }
  }
}

}  // namespace

bool RegistersDeferredConditions(const Stmt* body) { return Registers(body); }

void CheckDeferWaitWaiters(const Function& f, DiagnosticEngine& diag) {
  WaiterFinder(diag).VisitStmt(f.body);
}

void CheckDeferWaitKernels(const Program& prog, DiagnosticEngine& diag) {
  for (const Function* f : prog.functions) {
    if (!f->IsKernel()) continue;
    const Call* reg = FirstRegistration(f->body);
    if (!reg) continue;
    const Attr* mark = FindAttr(f->attrs, kDeferWaitWaiterAttr);
    if (mark && mark->kind == Attr::Kind::kBool && mark->b) {
      CheckMarkedWaiter(prog, *f, diag);
      continue;
    }
    diag.Error(
        reg->span,
        fmt::format("pld.system.defer_wait in kernel '{}': a direct use in an "
                    "@pl.function({}) kernel is rejected, because it bypasses the "
                    "validated single-block waiter task launch and the runtime's "
                    "deferred-completion (AsyncCtx) contract; register the conditions in "
                    "a dedicated `with pl.at(level=pl.Level.CORE_GROUP):` waiter scope "
                    "of an orchestration function",
                    f->name,
                    "type=" + EnumValueName(EnumKind::kFunctionType, static_cast<int>(f->func_type))
                                  .value_or("?")));
  }
}

}  // namespace pypto::passes
