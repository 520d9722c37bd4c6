// A Program: named functions in a deterministic order (source order, which the
// printer keeps, so print→parse→print is byte-identical), plus the module-level
// dynamic dimension symbols (`NR = pl.dynamic("NR")`) used in types.
#pragma once

#include <string>
#include <vector>

#include "pypto/ir/function.h"

namespace pypto::ir {

struct Program {
  std::string name;
  std::vector<const Function*> functions;
  std::vector<const Var*> dynamic_dims;  // in declaration order
  Span span;

  const Function* Find(std::string_view fname) const {
    for (const Function* f : functions)
      if (f->name == fname) return f;
    return nullptr;
  }
};

}  // namespace pypto::ir
