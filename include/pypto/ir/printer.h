// IR text printer. The text format is the PyPTO DSL (design §5): canonical full
// op names, ABI enums by name, `x: T = op(...)` assignments. Printing is the exact
// inverse of the parser: print -> parse -> print is byte-identical.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

#include "pypto/ir/program.h"

namespace pypto::ir {

std::string PrintProgram(const Program& p);
// Streams the same text as PrintProgram to `sink` in pieces — the header, then
// one function at a time — so a large program is never held as one string (the
// pieces concatenate to exactly PrintProgram(p)). Each piece is valid only
// during the call.
void PrintProgramTo(const Program& p, const std::function<void(std::string_view)>& sink);
// The same, written to `os` (stream errors are left in os's state).
void PrintProgramTo(const Program& p, std::ostream& os);
std::string PrintFunction(const Function& f);
std::string PrintStmt(const Stmt* s, int indent = 0);
std::string PrintExpr(const Expr* e);
// DSL spelling of a type: `pl.Tensor[[16, 64], pl.FP16]`, `pld.DistributedTensor[...]`.
std::string TypeToString(const Type* t);

}  // namespace pypto::ir
