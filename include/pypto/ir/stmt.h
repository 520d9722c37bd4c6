// IR statements. Bodies are single statements (usually a SeqStmt). SSA joins:
// If/For/While carry `return_vars` defined by the trailing YieldStmt of each
// branch/iteration; loops carry IterArgs whose `init` is the entry value.
// Scopes mark regions that later passes outline or lower (see design §3).
#pragma once

#include <string>
#include <vector>

#include "pypto/ir/expr.h"

namespace pypto::ir {

struct Stmt : Node {
  static bool ClassOf(NodeKind k) { return k >= kFirstStmt && k <= kLastStmt; }

 protected:
  Stmt(NodeKind k, Span s) : Node(k, s) {}
};

#define PYPTO_STMT_KIND(Name)                          \
  static constexpr NodeKind kKind = NodeKind::k##Name; \
  static bool ClassOf(NodeKind k) { return k == kKind; }

struct AssignStmt : Stmt {
  PYPTO_STMT_KIND(AssignStmt)
  AssignStmt(const Var* v, const Expr* e, Span s = {}) : Stmt(kKind, s), var(v), value(e) {}
  const Var* var;
  const Expr* value;
};

struct EvalStmt : Stmt {
  PYPTO_STMT_KIND(EvalStmt)
  EvalStmt(const Expr* e, Span s = {}) : Stmt(kKind, s), expr(e) {}
  const Expr* expr;
};

struct ReturnStmt : Stmt {
  PYPTO_STMT_KIND(ReturnStmt)
  ReturnStmt(std::vector<const Expr*> v, Span s = {}) : Stmt(kKind, s), values(std::move(v)) {}
  std::vector<const Expr*> values;
};

struct YieldStmt : Stmt {
  PYPTO_STMT_KIND(YieldStmt)
  YieldStmt(std::vector<const Expr*> v, Span s = {}) : Stmt(kKind, s), values(std::move(v)) {}
  std::vector<const Expr*> values;
};

struct IfStmt : Stmt {
  PYPTO_STMT_KIND(IfStmt)
  IfStmt(const Expr* c, const Stmt* t, const Stmt* e, std::vector<const Var*> rv, Span s = {})
      : Stmt(kKind, s), cond(c), then_body(t), else_body(e), return_vars(std::move(rv)) {}
  const Expr* cond;
  const Stmt* then_body;
  const Stmt* else_body;  // may be null
  std::vector<const Var*> return_vars;
};

struct ForStmt : Stmt {
  PYPTO_STMT_KIND(ForStmt)
  ForStmt(const Var* lv, const Expr* b, const Expr* e, const Expr* st,
          std::vector<const IterArg*> ia, const Stmt* body_, std::vector<const Var*> rv, ForKind k,
          AttrList at = {}, Span s = {})
      : Stmt(kKind, s),
        loop_var(lv),
        start(b),
        stop(e),
        step(st),
        iter_args(std::move(ia)),
        body(body_),
        return_vars(std::move(rv)),
        for_kind(k),
        attrs(std::move(at)) {}
  const Var* loop_var;
  const Expr* start;
  const Expr* stop;
  const Expr* step;
  std::vector<const IterArg*> iter_args;
  const Stmt* body;
  std::vector<const Var*> return_vars;
  ForKind for_kind;
  AttrList attrs;  // extra loop kwargs (e.g. chunk=) kept for round-tripping
};

struct WhileStmt : Stmt {
  PYPTO_STMT_KIND(WhileStmt)
  WhileStmt(const Expr* c, std::vector<const IterArg*> ia, const Stmt* b,
            std::vector<const Var*> rv, Span s = {})
      : Stmt(kKind, s), cond(c), iter_args(std::move(ia)), body(b), return_vars(std::move(rv)) {}
  const Expr* cond;
  std::vector<const IterArg*> iter_args;
  const Stmt* body;
  std::vector<const Var*> return_vars;
};

struct SeqStmt : Stmt {
  PYPTO_STMT_KIND(SeqStmt)
  SeqStmt(std::vector<const Stmt*> st, Span s = {}) : Stmt(kKind, s), stmts(std::move(st)) {}
  std::vector<const Stmt*> stmts;
};

struct BreakStmt : Stmt {
  PYPTO_STMT_KIND(BreakStmt)
  explicit BreakStmt(Span s = {}) : Stmt(kKind, s) {}
};

struct ContinueStmt : Stmt {
  PYPTO_STMT_KIND(ContinueStmt)
  explicit ContinueStmt(Span s = {}) : Stmt(kKind, s) {}
};

// Base of the scope statements (contiguous kinds kFirstScope..kLastStmt).
struct ScopeStmt : Stmt {
  static bool ClassOf(NodeKind k) { return k >= kFirstScope && k <= kLastStmt; }
  const Stmt* body;
  AttrList attrs;  // further scope kwargs (name_hint=, deps=, ...) kept verbatim

 protected:
  ScopeStmt(NodeKind k, const Stmt* b, AttrList a, Span s)
      : Stmt(k, s), body(b), attrs(std::move(a)) {}
};

// `with pl.at(level=pl.Level.CORE_GROUP):` — outlined into an InCore function.
struct InCoreScopeStmt : ScopeStmt {
  PYPTO_STMT_KIND(InCoreScopeStmt)
  InCoreScopeStmt(const Stmt* b, SplitMode sp, AttrList a = {}, Span s = {})
      : ScopeStmt(kKind, b, std::move(a), s), split(sp) {}
  SplitMode split;
};

// `with pl.at(level=..., role=...):` for levels other than CORE_GROUP.
struct HierarchyScopeStmt : ScopeStmt {
  PYPTO_STMT_KIND(HierarchyScopeStmt)
  HierarchyScopeStmt(const Stmt* b, Level l, std::optional<Role> r, AttrList a = {}, Span s = {})
      : ScopeStmt(kKind, b, std::move(a), s), level(l), role(r) {}
  Level level;
  std::optional<Role> role;
};

// `with pl.spmd(core_num):` — one synchronized SPMD grid.
struct SpmdScopeStmt : ScopeStmt {
  PYPTO_STMT_KIND(SpmdScopeStmt)
  SpmdScopeStmt(const Stmt* b, const Expr* n, bool sync, AttrList a = {}, Span s = {})
      : ScopeStmt(kKind, b, std::move(a), s), core_num(n), sync_start(sync) {}
  const Expr* core_num;
  bool sync_start;
};

// `for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):`
struct SplitAivScopeStmt : ScopeStmt {
  PYPTO_STMT_KIND(SplitAivScopeStmt)
  SplitAivScopeStmt(const Var* v, int64_t c, SplitMode m, const Stmt* b, AttrList a = {},
                    Span s = {})
      : ScopeStmt(kKind, b, std::move(a), s), var(v), count(c), mode(m) {}
  const Var* var;  // the sub-block index (tile.get_subblock_idx)
  int64_t count;
  SplitMode mode;
};

// Synthesized by MaterializeCommDomainScopes: `with pld.comm_domain(devices=[...],
// slots=["buf", ...]):` (empty devices = all ranks). Printed and parsed so IR
// after the pass round-trips.
struct CommDomainScopeStmt : ScopeStmt {
  PYPTO_STMT_KIND(CommDomainScopeStmt)
  CommDomainScopeStmt(std::string n, std::vector<int64_t> d, std::vector<std::string> sl,
                      const Stmt* b, AttrList a = {}, Span s = {})
      : ScopeStmt(kKind, b, std::move(a), s),
        name(std::move(n)),
        devices(std::move(d)),
        slots(std::move(sl)) {}
  std::string name;
  std::vector<int64_t> devices;
  std::vector<std::string> slots;
};

// `with pl.manual_scope():` in a chip orchestration — explicit-dependency mode.
// Each task in it (a `pl.at(level=pl.Level.CORE_GROUP)` scope, or after
// outlining a kernel call) starts without waiting for earlier tasks, except the
// ones it names in `deps=[...]`; leaving the scope waits for all of them. Task
// ids are names: `with pl.at(...) as t:` stores attr "task_id" = "t" and
// `deps=[a, b]` stores attr "deps" = ["a", "b"] on the InCoreScopeStmt (on the
// kernel call after outline-incore-scopes). See docs/executor.md.
struct ManualScopeStmt : ScopeStmt {
  PYPTO_STMT_KIND(ManualScopeStmt)
  explicit ManualScopeStmt(const Stmt* b, AttrList a = {}, Span s = {})
      : ScopeStmt(kKind, b, std::move(a), s) {}
};

#undef PYPTO_STMT_KIND

}  // namespace pypto::ir
