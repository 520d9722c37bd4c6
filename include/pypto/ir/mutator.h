// IRMutator: functional rewriting of IR with one overridable hook per node kind.
//
// Nodes are immutable, so "mutating" means building a new node. The defaults
// rebuild a node only when one of its children changed (pointer inequality);
// otherwise the original node is returned, so unchanged subtrees are shared
// between the input and the output program.
//
// Var substitution: `Substitute(old, new)` makes every later *use* of `old`
// (Var or IterArg) become `new`. Binding sites go through MutateVarDef: when the
// substitution maps a bound var to another Var the binding is renamed too; when a
// bound var's type changes (its shape mentions a substituted var) a fresh Var with
// the new type is bound and recorded as the substitution for its uses. Loops whose
// IterArg init or type changes get fresh IterArgs the same way.
//
// Rebuilt op Calls keep their op, kwargs and attrs (Exprs inside attrs are
// substituted too); when an argument or kwarg changed the type is re-deduced with
// MakeOpCall (a failure is a compiler bug in the pass: PYPTO_CHECK with the
// rendered diagnostics). Function calls keep their callee; their result type goes
// through MutateType.
//
// A statement hook may return nullptr to delete the statement (inside a SeqStmt),
// and a SeqStmt returned in place of a statement inside a SeqStmt is spliced in.
#pragma once

#include <unordered_map>
#include <vector>

#include "pypto/ir/context.h"
#include "pypto/ir/function.h"
#include "pypto/ir/program.h"
#include "pypto/ir/stmt.h"

namespace pypto::ir {

class IRMutator {
 public:
  explicit IRMutator(Context& ctx) : ctx_(ctx) {}
  virtual ~IRMutator() = default;

  // Whole-unit helpers: return the input pointer when nothing changed, else a new
  // Function/Program allocated in ctx (functions keep name, kinds, attrs).
  virtual const Program* MutateProgram(const Program& p);
  virtual const Function* MutateFunction(const Function& f);

  // Dispatchers (null in, null out).
  virtual const Expr* MutateExpr(const Expr* e);
  virtual const Stmt* MutateStmt(const Stmt* s);
  virtual const Type* MutateType(const Type* t);
  // A binding occurrence (param, assign LHS, loop var, return var, split_aiv var).
  virtual const Var* MutateVarDef(const Var* v);

  // Every later use of `from` becomes `to`.
  void Substitute(const Var* from, const Expr* to) { subst_[from] = to; }
  // The current substitution of `v`, or nullptr.
  const Expr* Substitution(const Var* v) const {
    auto it = subst_.find(v);
    return it == subst_.end() ? nullptr : it->second;
  }

  // ---- per-kind hooks (defaults rebuild on child change: generated from the
  // field lists of node_kinds.def, except the kinds with a Rebuild overload) ----
#define PYPTO_EXPR(N, ...) virtual const Expr* Mutate_##N(const N* e);
#define PYPTO_STMT(N, ...) virtual const Stmt* Mutate_##N(const N* s);
#include "pypto/ir/node_kinds.def"

  // Rebuilds an Attr whose (nested) Expr payload changed; `changed` is set then.
  Attr MutateAttr(const Attr& a, bool* changed);
  AttrList MutateAttrs(const AttrList& l, bool* changed);

 protected:
  // Mutates a list of exprs; `changed` is set when any element changed.
  std::vector<const Expr*> MutateExprs(const std::vector<const Expr*>& v, bool* changed);
  // Binding of a loop's iter args: new init/type -> fresh IterArg (substituted).
  // Called by the loop hooks before the body is visited; a subclass may retype.
  virtual std::vector<const IterArg*> MutateIterArgs(const std::vector<const IterArg*>& v,
                                                     bool* changed);
  std::vector<const Var*> MutateVarDefs(const std::vector<const Var*>& v, bool* changed);
  // Rebuilds an op call (re-deducing its type); PYPTO_CHECKs on deducer failure.
  const Call* RebuildOpCall(const Call* c, std::vector<const Expr*> args, AttrList kwargs,
                            AttrList attrs);

  // Default of every Mutate_ hook: a field-driven rebuild (mutator.cc), or one
  // of the overloads for the kinds whose rebuild is more than their fields
  // (substitution, type re-deduction, SeqStmt deletion/splicing).
  template <class N>
  const N* Rebuild(const N* x);
  template <class N>
  struct RebuildWalk;
  const Expr* Rebuild(const Var* e);
  const Expr* Rebuild(const IterArg* e);
  const Expr* Rebuild(const Call* c);
  const Expr* Rebuild(const MakeTuple* e);
  const Expr* Rebuild(const TupleGetItem* e);
  const Stmt* Rebuild(const SeqStmt* s);

  Context& ctx_;
  std::unordered_map<const Var*, const Expr*> subst_;
};

}  // namespace pypto::ir
