// IRProperty names, PropertySet printing and the structural detectors of the
// properties that can be decided on any program (see properties.h).
#include "pypto/passes/properties.h"

#include <fmt/format.h>

#include <unordered_set>

#include "host_comm.h"
#include "ir_walk.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/op_registry.h"
#include "tile_conversion.h"

namespace pypto::passes {

using namespace ir;

std::string_view PropertyName(IRProperty p) {
  switch (p) {
#define PYPTO_X(e, n) \
  case IRProperty::e: \
    return n;
    PYPTO_IR_PROPERTIES(PYPTO_X)
#undef PYPTO_X
    case IRProperty::kCount:
      break;
  }
  return "?";
}

std::string PropertySet::ToString() const {
  std::string out;
  ForEach([&](IRProperty p) {
    if (!out.empty()) out += ", ";
    out += PropertyName(p);
  });
  return out.empty() ? "none" : out;
}

bool IsDetectable(IRProperty p) {
  switch (p) {
    case IRProperty::kSSAForm:
    case IRProperty::kSplitIncoreOrch:
    case IRProperty::kIncoreTileOps:
    case IRProperty::kTileOps2D:
    case IRProperty::kTileMemoryInferred:
    case IRProperty::kCommDomainScopesMaterialized:
      return true;
    default:
      return false;
  }
}

namespace {

bool CheckSSA(const Program& prog, std::string* why) {
  for (const Function* f : prog.functions) {
    std::unordered_set<const Var*> defined(f->params.begin(), f->params.end());
    bool ok = true;
    walk::ForEachStmt(f->body, [&](const Stmt* s) {
      walk::ForEachOwnDef(s, [&](const Var* v) {
        if (!ok) return;
        if (!defined.insert(v).second) {
          ok = false;
          if (why)
            *why = fmt::format("function '{}': '{}' is assigned more than once", f->name,
                               v->name_hint);
        }
      });
    });
    if (!ok) return false;
  }
  return true;
}

bool CheckNoInCoreScopes(const Program& prog, std::string* why) {
  for (const Function* f : prog.functions) {
    bool found = false;
    walk::ForEachStmt(f->body, [&](const Stmt* s) { found |= Isa<InCoreScopeStmt>(s); });
    if (found) {
      if (why)
        *why = fmt::format("function '{}' still contains a pl.at(level=pl.Level.CORE_GROUP) scope",
                           f->name);
      return false;
    }
  }
  return true;
}

bool CheckIncoreTileOps(const Program& prog, std::string* why) {
  for (const Function* f : prog.functions) {
    if (!f->IsKernel()) continue;
    const Call* bad = nullptr;
    walk::ForEachCall(f->body, [&](const Call* c, const Stmt*) {
      if (!bad && NeedsTileConversion(*c)) bad = c;
    });
    if (bad) {
      if (why) *why = fmt::format("kernel '{}' still calls {}", f->name, bad->OpName());
      return false;
    }
  }
  return true;
}

// Applies `f` to every tile type bound in kernel functions (params and defs).
bool ForEachKernelTile(const Program& prog,
                       const std::function<bool(const Function&, const Var*, const TileType*)>& f) {
  for (const Function* fn : prog.functions) {
    if (!fn->IsKernel()) continue;
    bool ok = true;
    auto check = [&](const Var* v) {
      if (!ok) return;
      if (auto* t = As<TileType>(v->type)) ok = f(*fn, v, t);
    };
    for (const Var* p : fn->params) check(p);
    walk::ForEachStmt(fn->body, [&](const Stmt* s) { walk::ForEachOwnDef(s, check); });
    if (!ok) return false;
  }
  return true;
}

}  // namespace

bool CheckProperty(const Program& prog, IRProperty p, std::string* why) {
  switch (p) {
    case IRProperty::kSSAForm:
      return CheckSSA(prog, why);
    case IRProperty::kSplitIncoreOrch:
      return CheckNoInCoreScopes(prog, why);
    case IRProperty::kIncoreTileOps:
      return CheckIncoreTileOps(prog, why);
    case IRProperty::kTileOps2D:
      return ForEachKernelTile(prog, [&](const Function& f, const Var* v, const TileType* t) {
        if (t->rank() <= 2) return true;
        if (why)
          *why = fmt::format("kernel '{}': tile '{}' has rank {}", f.name, v->name_hint, t->rank());
        return false;
      });
    case IRProperty::kTileMemoryInferred:
      return ForEachKernelTile(prog, [&](const Function& f, const Var* v, const TileType* t) {
        if (t->memory_space) return true;
        if (why)
          *why = fmt::format("kernel '{}': tile '{}' has no memory space", f.name, v->name_hint);
        return false;
      });
    case IRProperty::kCommDomainScopesMaterialized:
      return host::CheckCommDomainsMaterialized(prog, why);
    default:
      return false;
  }
}

PropertySet DetectProperties(const Program& prog) {
  PropertySet s;
  for (int i = 0; i < static_cast<int>(IRProperty::kCount); ++i) {
    auto p = static_cast<IRProperty>(i);
    if (IsDetectable(p) && CheckProperty(prog, p)) s.Add(p);
  }
  return s;
}

}  // namespace pypto::passes
