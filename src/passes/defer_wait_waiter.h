// The defer_wait V1 waiter contract, checked by outline-incore-scopes before it
// outlines: a pl.at(level=CORE_GROUP) scope that registers a
// pld.system.defer_wait condition is a dedicated waiter task —
//  * top-level: not inside pl.spmd / pl.split_aiv / another pl.at (loops,
//    branches and pl.manual_scope are fine), single-block and pure AIV (no
//    split=);
//  * no predicate= and no allow_early_resolve=True (consumer pickup must not
//    precede readiness);
//  * its body only registers conditions and does scalar bookkeeping (scalar
//    assignments, the SSA phis / iter_args of loops and branches, rank / nranks
//    / comm-context queries): no tensor.read, payload, cache or communication op,
//    no call of another function;
//  * at most ir::kMaxDeferredConditions registrations per task, so a loop that
//    registers needs a static trip count (one that registers nothing does not).
// outline-incore-scopes marks the kernel it outlines from such a scope with the
// function attr kDeferWaitWaiterAttr. A kernel of its input that registers
// conditions without the mark (a direct @pl.function InCore / AIV use) is
// rejected: it bypasses the validated single-block waiter launch and the
// runtime's deferred-completion contract. A marked kernel of its input
// (programmatically built or printed IR) is accepted only after revalidation:
// an InCore or AIV function with no split / predicate / allow_early_resolve=True
// attr, the body rules above, and every call of it a top-level call (not inside
// pl.spmd / pl.split_aiv / pl.at) of an orchestration function with no
// predicate / allow_early_resolve=True call attr.
#pragma once

#include "pypto/core/diagnostics.h"
#include "pypto/ir/function.h"
#include "pypto/ir/program.h"

namespace pypto::passes {

// The function attr marking an outlined waiter kernel (a Bool, true).
inline constexpr const char* kDeferWaitWaiterAttr = "defer_wait_waiter";

// Whether `body` registers a pld.system.defer_wait condition.
bool RegistersDeferredConditions(const ir::Stmt* body);

// Reports every waiter scope of `f` that breaks the contract (errors in `diag`).
void CheckDeferWaitWaiters(const ir::Function& f, DiagnosticEngine& diag);

// Reports every kernel of `prog` that registers conditions without the waiter
// mark, and every marked kernel (or call of one) that breaks the contract.
void CheckDeferWaitKernels(const ir::Program& prog, DiagnosticEngine& diag);

}  // namespace pypto::passes
