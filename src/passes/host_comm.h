// Private helpers of the three host-rail passes (synthesize-allreduce-signals,
// materialize-comm-domain-scopes, lower-host-tensor-collectives): which
// functions are host orchestrators, and one table describing every
// pld.tensor.* collective as the host rail sees it — which argument is the
// window returned as the result, which arguments are window operands, the
// builtin it lowers to and the per-argument dispatch directions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pypto/ir/enums.h"
#include "pypto/ir/expr.h"
#include "pypto/ir/function.h"

namespace pypto::passes::host {

// The host orchestrator: level HOST with role Orchestrator (the usual Opaque
// `@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)`), or an
// Orchestration function placed at level HOST.
bool IsHostOrch(const ir::Function& f);

// One host-rail collective.
struct CollectiveInfo {
  std::string_view op;                 // "pld.tensor.allreduce"
  std::string_view builtin;            // "builtin.tensor.allreduce" (ring: see BuiltinName)
  int result_arg;                      // the window returned as the result (window-as-result)
  int data_arg;                        // the data window whose domain the others inherit (-1: none)
  std::vector<ir::ArgDirection> dirs;  // dispatch direction per argument
};

// The table entry of a pld.tensor.* collective call, or nullptr.
const CollectiveInfo* CollectiveOf(const ir::Call* c);
// builtin.tensor.allreduce_ring for mode="ring", else info.builtin.
std::string_view BuiltinName(const CollectiveInfo& info, const ir::Call& c);

// The positional-argument name of `c` at `idx` ("target", "signal", ...).
std::string_view ArgName(const ir::Call& c, size_t idx);

// A string kwarg of a call (default when absent).
std::string_view StrKwarg(const ir::Call& c, std::string_view key, std::string_view def);
int64_t IntKwarg(const ir::Call& c, std::string_view key, int64_t def);

}  // namespace pypto::passes::host

namespace pypto::ir {
struct Program;
}

namespace pypto::passes::host {

// The structural check of property CommDomainScopesMaterialized: in every host
// orchestrator, each pld.tensor.alloc_window_buffer sits inside a
// `with pld.comm_domain(...)` scope listing its name in slots.
bool CheckCommDomainsMaterialized(const ir::Program& prog, std::string* why);

}  // namespace pypto::passes::host
