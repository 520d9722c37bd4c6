// Backward liveness of Vars over structured (non-SSA) statement trees, for
// convert-to-ssa: a Var re-assigned in a loop needs to be carried (an iter arg)
// only when its value can be read by a later iteration before the next write,
// or after the loop; a Var re-assigned in an if branch needs a return var only
// when it is read after the if. Everything else is a body-local temporary.
//
// The analysis works on Var identity (a re-assigned pre-SSA name is one Var).
// A use is any Var reached from a statement's own expressions, including the
// expressions inside types (dynamic shapes). break leaves with what is live
// after the loop, continue with what is live at the loop head, return with the
// exit set (the function's parameters: conservatively read by the caller).
//
// Cost is linear in the size of the body: the live set at a loop head is what
// is live after the loop plus the Vars the body reads before writing them in
// one iteration (computed once per loop, bottom-up), so no fixpoint iteration
// is needed; each body is then walked once more to record the nested results.
#pragma once

#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "pypto/ir/function.h"

namespace pypto::passes {

class StructuredLiveness {
 public:
  // Analyses `body`; `exit_live` are the Vars read when the function returns.
  StructuredLiveness(const ir::Stmt* body, const std::vector<const ir::Var*>& exit_live);

  // For a ForStmt / WhileStmt of the analysed body: whether `v` is live at the
  // loop head (read by an iteration before being written, or after the loop).
  // For an IfStmt: whether `v` is live right after it. Only Vars assigned in the
  // statement's bodies are recorded; anything else answers false.
  bool LiveAt(const ir::Stmt* s, const ir::Var* v) const;

 private:
  using VarSet = std::unordered_set<const ir::Var*>;
  // Turns `live` (live after `s`) into the set live before `s`. `brk` / `cont`:
  // live after / at the head of the innermost enclosing loop. Records results
  // for the loops and ifs inside `s` when `record`.
  void Live(const ir::Stmt* s, VarSet& live, const VarSet* brk, const VarSet* cont, bool record);
  // Vars read by one iteration of `loop` before being written in it.
  const VarSet& Upward(const ir::Stmt* loop);
  void Record(const ir::Stmt* s, const VarSet& live, const ir::Stmt* b1, const ir::Stmt* b2);

  VarSet exit_;
  std::unordered_map<const ir::Stmt*, VarSet> upward_;
  std::unordered_map<const ir::Stmt*, VarSet> at_;
};

}  // namespace pypto::passes
