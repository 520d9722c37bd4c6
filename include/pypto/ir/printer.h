// IR text printer. The text format is the PyPTO DSL (design §5): canonical full
// op names, ABI enums by name, `x: T = op(...)` assignments. Printing is the exact
// inverse of the parser: print -> parse -> print is byte-identical.
#pragma once

#include <string>

#include "pypto/ir/program.h"

namespace pypto::ir {

std::string PrintProgram(const Program& p);
std::string PrintFunction(const Function& f);
std::string PrintStmt(const Stmt* s, int indent = 0);
std::string PrintExpr(const Expr* e);
// DSL spelling of a type: `pl.Tensor[[16, 64], pl.FP16]`, `pld.DistributedTensor[...]`.
std::string TypeToString(const Type* t);

}  // namespace pypto::ir
