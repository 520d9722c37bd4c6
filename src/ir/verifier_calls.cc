// Verifier checks on calls: op calls re-deduced through their OpDef (the stored
// type must equal the re-deduced one), function calls against the callee's
// signature, and op placement against the kind of the enclosing function.
#include <fmt/format.h>

#include "op_deduce.h"
#include "parser/text_names.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/enums.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/structural_equal.h"
#include "verifier_internal.h"

namespace pypto::ir::verifier_detail {

// The op's DSL spelling, as the printer writes it (pl.tile.load, pld.system.wait).
static std::string PrintedName(const OpDef& op) { return text::PrintedOpName(op.name); }

std::string TypeSpelling(const Type* t) { return t ? TypeStr(t) : std::string("<null type>"); }

bool TypesCompatible(const Type* actual, const Type* expected) {
  if (!actual || !expected || actual == expected) return true;
  if (Isa<UnknownType>(actual) || Isa<UnknownType>(expected)) return true;
  switch (expected->kind) {
    case NodeKind::kTensorType:
    case NodeKind::kDistributedTensorType: {
      const TensorType* a = AsTensorTypeLike(actual);
      const auto* e = static_cast<const TensorType*>(expected);
      if (!a) return false;
      if (Isa<DistributedTensorType>(expected) && !Isa<DistributedTensorType>(actual)) return false;
      return a->dtype == e->dtype && ShapesCompatible(a->shape, e->shape);
    }
    case NodeKind::kTileType: {
      const auto* a = As<TileType>(actual);
      const auto* e = static_cast<const TileType*>(expected);
      if (!a || a->dtype != e->dtype || !ShapesCompatible(a->shape, e->shape)) return false;
      return !a->memory_space || !e->memory_space || *a->memory_space == *e->memory_space;
    }
    case NodeKind::kScalarType: {
      const auto* a = As<ScalarType>(actual);
      if (!a) return false;
      DataType x = a->dtype, y = static_cast<const ScalarType*>(expected)->dtype;
      if (x == y) return true;
      return IsInteger(x) && IsInteger(y) && (x == DataType::kIndex || y == DataType::kIndex);
    }
    case NodeKind::kArrayType: {
      const auto* a = As<ArrayType>(actual);
      const auto* e = static_cast<const ArrayType*>(expected);
      return a && a->dtype == e->dtype && a->extent == e->extent;
    }
    case NodeKind::kTupleType: {
      const auto* a = As<TupleType>(actual);
      const auto* e = static_cast<const TupleType*>(expected);
      if (!a || a->types.size() != e->types.size()) return false;
      for (size_t i = 0; i < e->types.size(); ++i)
        if (!TypesCompatible(a->types[i], e->types[i])) return false;
      return true;
    }
    default:
      return actual->kind == expected->kind;
  }
}

void Verifier::CheckCall(const Call* c) {
  if (c->op) {
    CheckOpCall(c);
    CheckPlacement(c);
    CheckParamOnlyArgs(c);
  } else if (!c->callee.empty()) {
    CheckFunctionCall(c);
  } else {
    Error(c->span, "internal IR error: call with neither an op nor a callee");
  }
}

void Verifier::CheckOpCall(const Call* c) {
  for (const Expr* a : c->args)
    if (!a) return;  // reported as a null expression already
  DiagnosticEngine scratch(diag_.sources());
  AttrList kwargs = c->kwargs;
  const Type* re_type = DeduceOpCallType(ctx_, *c->op, c->args, kwargs, c->span, scratch);
  if (!re_type) {
    for (const Diagnostic& d : scratch.diagnostics()) {
      if (d.severity == Severity::kWarning)
        diag_.Warning(d.span, d.message);
      else
        diag_.Error(d.span, d.message);
      for (const auto& n : d.notes) diag_.AddNote(n.span, n.message);
    }
    if (scratch.diagnostics().empty())
      Error(c->span, fmt::format("{}: the op's deducer rejected this call", c->op->name));
    return;
  }
  std::string why;
  if (re_type != c->type && !StructuralEqual(re_type, c->type, &why))
    Error(c->span, fmt::format("{}: stored result type {} does not match the type deduced from "
                               "its arguments, {}; rebuild the call with MakeOpCall",
                               PrintedName(*c->op), TypeSpelling(c->type), TypeSpelling(re_type)));
}

static std::string_view FunctionTypeName(FunctionType t) {
  static const std::string_view kNames[] = {"Opaque", "Orchestration", "InCore", "AIC",
                                            "AIV",    "Group",         "Spmd"};
  int i = static_cast<int>(t);
  return i >= 0 && i < 7 ? kNames[i] : "?";
}

std::string Verifier::DescribeContext() const {
  const Function& f = *cur_func_;
  if (incore_scope_depth_ > 0)
    return fmt::format("a pl.at(level=pl.Level.CORE_GROUP) scope of function '{}'", f.name);
  if (f.IsHostOrchestrator()) return fmt::format("the host orchestrator '{}'", f.name);
  if (f.IsKernel()) return fmt::format("kernel '{}' ({})", f.name, FunctionTypeName(f.func_type));
  if (f.IsOrchestration())
    return fmt::format("orchestration function '{}' (Orchestration)", f.name);
  return fmt::format("function '{}' ({})", f.name, FunctionTypeName(f.func_type));
}

void Verifier::CheckPlacement(const Call* c) {
  switch (c->op->placement) {
    case OpPlacement::kAnywhere:
      return;
    case OpPlacement::kHostOnly:
      if (cur_func_->IsHostOrchestrator() && incore_scope_depth_ == 0) return;
      Error(c->span, fmt::format("{}: only allowed in the host orchestrator "
                                 "(@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)), "
                                 "but used in {}",
                                 PrintedName(*c->op), DescribeContext()));
      return;
    case OpPlacement::kKernelOnly:
      if (cur_func_->IsKernel() || incore_scope_depth_ > 0) return;
      Error(c->span, fmt::format("{}: only allowed in kernels (InCore/AIC/AIV functions or "
                                 "pl.at(level=pl.Level.CORE_GROUP) scopes), but used in {}",
                                 PrintedName(*c->op), DescribeContext()));
      return;
  }
}

void Verifier::CheckFunctionCall(const Call* c) {
  std::string name = "self." + c->callee;
  auto it = functions_.find(c->callee);
  if (it == functions_.end()) {
    Error(c->span,
          fmt::format("{}: program '{}' has no function named '{}'", name, prog_.name, c->callee));
    return;
  }
  const Function& callee = *it->second;
  if (cur_func_) calls_[cur_func_].push_back({&callee, c->span});
  // A host sub-worker runs host Python between dispatches: only the host
  // orchestrator calls it, and it runs on the host, not on a device.
  if (callee.IsHostSubWorker()) {
    if (!cur_func_->IsHostOrchestrator() || incore_scope_depth_ > 0)
      Error(c->span, fmt::format("{}: '{}' is a HOST SubWorker (host Python); only the host "
                                 "orchestrator calls it, but it is called from {}",
                                 name, c->callee, DescribeContext()));
    else if (FindAttr(c->attrs, "device"))
      Error(c->span, fmt::format("{}: '{}' is a HOST SubWorker and runs on the host; drop "
                                 "device= (only chip orchestration functions are dispatched "
                                 "to a device)",
                                 name, c->callee));
  }
  if (c->args.size() != callee.params.size()) {
    std::string params;
    for (size_t i = 0; i < callee.params.size(); ++i)
      params += (i ? ", " : "") + (callee.params[i] ? callee.params[i]->name_hint : "?");
    Error(c->span, fmt::format("{}: expected {} argument(s) ({}), got {}", name,
                               callee.params.size(), params, c->args.size()));
  } else {
    for (size_t i = 0; i < c->args.size(); ++i) {
      const Var* p = callee.params[i];
      const Expr* a = c->args[i];
      if (!p || !a) continue;
      // Integer scalars convert implicitly at a call (a host `pld.world_size()`,
      // INT64, may feed a `pl.Scalar[pl.INT32]` parameter), as in Python.
      const auto* as = As<ScalarType>(a->type);
      const auto* ps = As<ScalarType>(p->type);
      if (as && ps && IsInteger(as->dtype) && IsInteger(ps->dtype)) continue;
      if (!TypesCompatible(a->type, p->type))
        Error(c->span, fmt::format("{}: argument {} has type {} but parameter '{}' is {}", name, i,
                                   TypeSpelling(a->type), p->name_hint, TypeSpelling(p->type)));
    }
  }
  const auto& rts = callee.return_types;
  const Type* expected = nullptr;
  if (rts.size() == 1) expected = rts[0];
  if (rts.size() > 1) {
    const auto* tt = As<TupleType>(c->type);
    bool ok = tt && tt->types.size() == rts.size();
    for (size_t i = 0; ok && i < rts.size(); ++i) ok = TypesCompatible(tt->types[i], rts[i]);
    if (!ok && !Isa<UnknownType>(c->type))
      Error(c->span, fmt::format("{}: result type {} does not match the {} return types of '{}'",
                                 name, TypeSpelling(c->type), rts.size(), c->callee));
    return;
  }
  if (expected && !TypesCompatible(c->type, expected))
    Error(c->span, fmt::format("{}: result type {} does not match the return type {} of '{}'", name,
                               TypeSpelling(c->type), TypeSpelling(expected), c->callee));
  if (!expected && c->type && !Isa<UnknownType>(c->type))
    Error(c->span, fmt::format("{}: '{}' returns nothing but the call is typed {}", name, c->callee,
                               TypeSpelling(c->type)));
}

// An argument the op declares parameter-only (OpDef::param_only_arg; defer_wait's
// signal in V1) must be the kernel's own window-bound parameter. The deducer
// rejects inline slices/views and loop-carried values; only the verifier knows
// whether a Var is a parameter, so SSA aliases (`s = sig`) are caught here.
void Verifier::CheckParamOnlyArgs(const Call* c) {
  const int arg = c->op ? c->op->param_only_arg : -1;
  if (arg < 0 || static_cast<size_t>(arg) >= c->args.size()) return;
  const Var* v = AsVarLike(c->args[arg]);
  if (!v) return;
  const VarInfo* info = vars_.Find(v);
  if (!info || info->kind == BindKind::kParam) return;
  Error(c->span,
        fmt::format("{}: argument '{}' must be a window-bound "
                    "parameter of the kernel itself, but '{}' is {} (V1 rejects "
                    "slices, views and SSA aliases; pass the parameter directly)",
                    c->op->name, c->op->args[arg].name, v->name_hint, BindKindName(info->kind)));
}

}  // namespace pypto::ir::verifier_detail
