// Structural equality and hashing of IR, ignoring spans and Var name hints:
// Vars are matched by their binding position (params, assignments, loop vars,
// iter args, return vars), not by identity or name. C++ tests compare IR with
// these, never by printed strings.
#pragma once

#include <cstdint>
#include <string>

#include "pypto/ir/program.h"

namespace pypto::ir {

// `why` (optional) receives a short description of the first difference.
bool StructuralEqual(const Program& a, const Program& b, std::string* why = nullptr);
bool StructuralEqual(const Function& a, const Function& b, std::string* why = nullptr);
bool StructuralEqual(const Stmt* a, const Stmt* b, std::string* why = nullptr);
bool StructuralEqual(const Expr* a, const Expr* b, std::string* why = nullptr);
bool StructuralEqual(const Type* a, const Type* b, std::string* why = nullptr);

uint64_t StructuralHash(const Program& p);
uint64_t StructuralHash(const Function& f);
uint64_t StructuralHash(const Stmt* s);
uint64_t StructuralHash(const Expr* e);
uint64_t StructuralHash(const Type* t);

}  // namespace pypto::ir
