// Private helpers of the three host-rail passes (synthesize-allreduce-signals,
// materialize-comm-domain-scopes, lower-host-tensor-collectives): which
// functions are host orchestrators, and how the host rail sees every
// pld.tensor.* collective — which argument is the window returned as the
// result, which is the data window, the builtin it lowers to and the
// per-argument dispatch directions — all derived from the op registrations.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pypto/ir/enums.h"
#include "pypto/ir/expr.h"
#include "pypto/ir/function.h"
#include "pypto/ir/op_registry.h"

namespace pypto::passes::host {

// The host orchestrator: level HOST with role Orchestrator (the usual Opaque
// `@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)`), or an
// Orchestration function placed at level HOST.
bool IsHostOrch(const ir::Function& f);

// One host-rail collective, derived from its registration (OpFamily::kCollective).
struct CollectiveInfo {
  const ir::OpDef* op = nullptr;       // the pld.tensor.* collective
  int result_arg = -1;                 // the window returned as the result (OpDef::returned_arg)
  int data_arg = -1;                   // the data window whose domain the others inherit (-1: none)
  std::vector<ir::ArgDirection> dirs;  // dispatch direction per argument (see host_comm.cc)
};

// The host-rail view of a pld.tensor.* collective call, or nullptr.
const CollectiveInfo* CollectiveOf(const ir::Call* c);
// The builtin the call dispatches to (OpDef::BuiltinFor: mode="ring" picks
// builtin.tensor.allreduce_ring).
const ir::OpDef& BuiltinOf(const ir::Call& c);

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
