// Functions and their kinds. The host orchestrator is an Opaque function with
// level HOST and role Orchestrator; chip orchestrations are Orchestration
// (level CHIP); kernels are InCore, or AIC/AIV/Group after ExpandMixedKernel.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pypto/ir/stmt.h"

namespace pypto::ir {

struct Function {
  std::string name;
  std::vector<const Var*> params;
  std::vector<ParamDirection> param_dirs;  // same length as params
  std::vector<const Type*> return_types;
  const Stmt* body = nullptr;
  FunctionType func_type = FunctionType::kOpaque;
  std::optional<Level> level;
  std::optional<Role> role;
  AttrList attrs;  // decorator kwargs we do not model (auto_scope=, ...) and func attrs
  Span span;

  bool IsHostOrchestrator() const {
    return func_type == FunctionType::kOpaque && level == Level::kHost &&
           role == Role::kOrchestrator;
  }
  // A host sub-worker: host code (upstream's plain-Python body, bound at run
  // time) that the host orchestrator calls between device dispatches. Its IR
  // body is empty (`...` in IR text); pypto.runtime / pypto.sim.run bind the
  // Python function the DSL decorated.
  bool IsHostSubWorker() const {
    return func_type == FunctionType::kOpaque && level == Level::kHost && role == Role::kSubWorker;
  }
  bool IsKernel() const {  // code that runs on AI cores
    return func_type == FunctionType::kInCore || func_type == FunctionType::kAIC ||
           func_type == FunctionType::kAIV;
  }
  bool IsOrchestration() const { return func_type == FunctionType::kOrchestration; }
};

}  // namespace pypto::ir
