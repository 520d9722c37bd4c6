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
#pragma once

#include "pypto/core/diagnostics.h"
#include "pypto/ir/function.h"

namespace pypto::passes {

// Reports every waiter scope of `f` that breaks the contract (errors in `diag`).
void CheckDeferWaitWaiters(const ir::Function& f, DiagnosticEngine& diag);

}  // namespace pypto::passes
