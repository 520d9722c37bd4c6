// A pass: a named program transformation with a property contract. Passes are
// pure functions from one Program to a new one in the same Context (unchanged
// functions and nodes are shared). A pass reports user errors to the
// DiagnosticEngine and returns nullptr; internal invariants use PYPTO_CHECK.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pypto/core/diagnostics.h"
#include "pypto/ir/context.h"
#include "pypto/ir/program.h"
#include "pypto/passes/properties.h"

namespace pypto::passes {

class Pass {
 public:
  virtual ~Pass() = default;
  // Returns the transformed program, or nullptr after reporting errors to `diag`.
  virtual const ir::Program* Run(ir::Context& ctx, const ir::Program& prog,
                                 DiagnosticEngine& diag) = 0;
};

// One entry of the pass registry: the pass's name, contract and factory.
struct PassInfo {
  std::string name;     // "convert-to-ssa"
  std::string summary;  // one line for --list-passes
  PropertySet required;
  PropertySet produced;
  PropertySet invalidated;
  std::function<std::unique_ptr<Pass>()> create;
};

// Every known pass, in default-pipeline order (simplify once).
const std::vector<PassInfo>& AllPasses();
const PassInfo* FindPass(std::string_view name);
// The first registered pass producing `p` (nullptr when none does).
const PassInfo* ProducerOf(IRProperty p);

}  // namespace pypto::passes
