// Which parameter each return value of a function aliases: for a function
// that returns its (In)Out DistributedTensor argument — the parameter itself,
// a write-back of it (`stage = pl.store(t, [0, 0], stage)`, `pl.tile.store`),
// a view / loop carry / if return var of it, or the matching result of a call
// that returns it in turn — the caller's binding of that result refers to the
// caller's argument (same window, same comm context).
//
// Derivation follows the rule of materialize-dist-tensor-ctx: a DistributedTensor
// Var defined by an op call derives from the op's first DistributedTensor Var
// argument. Results that derive from no parameter (or from different ones on
// different returns) are -1.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "pypto/ir/program.h"

namespace pypto::passes {

class ReturnedParams {
 public:
  explicit ReturnedParams(const ir::Program& prog) : prog_(prog) {}

  // One entry per return value of function `name` (a tuple return counts its
  // elements): the index of the parameter it aliases, or -1. Empty for an
  // unknown function.
  const std::vector<int>& Of(const std::string& name);

 private:
  const ir::Program& prog_;
  std::unordered_map<std::string, std::vector<int>> memo_;
};

}  // namespace pypto::passes
