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

bool Registers(const Stmt* body) {
  bool found = false;
  walk::ForEachCall(body, [&](const Call* c, const Stmt*) { found |= c->Is(ops::kPldDeferWait); });
  return found;
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
      case NodeKind::kYieldStmt: {
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

class WaiterFinder : public IRVisitor {
 public:
  explicit WaiterFinder(DiagnosticEngine& d) : diag_(d) {}

  void Visit_InCoreScopeStmt(const InCoreScopeStmt* s) override {
    if (Registers(s->body)) Check(*s);
    Nested(s);
  }
  void Visit_SpmdScopeStmt(const SpmdScopeStmt* s) override { Nested(s); }
  void Visit_SplitAivScopeStmt(const SplitAivScopeStmt* s) override { Nested(s); }
  void Visit_HierarchyScopeStmt(const HierarchyScopeStmt* s) override { Nested(s); }

 private:
  template <class S>
  void Nested(const S* s) {
    ++depth_;
    IRVisitor::VisitChildren(s);
    --depth_;
  }

  void Check(const InCoreScopeStmt& s) {
    if (depth_ > 0)
      diag_.Error(s.span, fmt::format("{} must be a top-level pl.at(level=pl.Level.CORE_GROUP) "
                                      "task (single block), not inside pl.spmd, pl.split_aiv or "
                                      "another scope",
                                      kWaiter));
    if (s.split != SplitMode::kNone)
      diag_.Error(s.span, fmt::format("{} is a pure-AIV single-block task; split= is not allowed",
                                      kWaiter));
    if (FindAttr(s.attrs, "predicate"))
      diag_.Error(s.span, fmt::format("{} takes no predicate=: it must always register", kWaiter));
    if (const Attr* a = FindAttr(s.attrs, "allow_early_resolve");
        a && a->kind == Attr::Kind::kBool && a->b)
      diag_.Error(s.span, fmt::format("{} must not set allow_early_resolve=True: a consumer "
                                      "could be picked up before the counters are ready",
                                      kWaiter));
    auto n = WaiterBody(diag_).Count(s.body);
    if (n && *n > kMaxDeferredConditions)
      diag_.Error(s.span, fmt::format("{} registers {} conditions; a task registers at most {}",
                                      kWaiter, *n, kMaxDeferredConditions));
  }

  DiagnosticEngine& diag_;
  int depth_ = 0;
};

}  // namespace

void CheckDeferWaitWaiters(const Function& f, DiagnosticEngine& diag) {
  WaiterFinder(diag).VisitStmt(f.body);
}

}  // namespace pypto::passes
