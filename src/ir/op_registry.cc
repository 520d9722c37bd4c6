// OpRegistry storage, generic call checking (arity, kwarg schema) and the
// deducer context's diagnostic helpers. Which ops exist is not this layer's
// business: the ops library fills the registry (FillOpRegistry, on first use).
#include "pypto/ir/op_registry.h"

#include <fmt/format.h>

#include "op_deduce.h"
#include "pypto/core/check.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/printer.h"

namespace pypto::ir {

OpRegistry& OpRegistry::Mutable() {
  static OpRegistry* reg = new OpRegistry();
  return *reg;
}

// Weak: defined by the ops library (src/ops/ops.cc). A program that links only
// pypto_ir has no definition, the address is null and the registry stays empty.
[[gnu::weak]] void FillOpRegistry(OpRegistry& r);

const OpRegistry& OpRegistry::Global() {
  static const OpRegistry* reg = [] {
    OpRegistry* r = &Mutable();
    if (FillOpRegistry) FillOpRegistry(*r);
    return r;
  }();
  return *reg;
}

OpBuilder OpRegistry::Register(OpHandle h, std::string name) {
  PYPTO_CHECK(h.valid(), "op registered without a handle: " + name);
  PYPTO_CHECK(ops_.find(name) == ops_.end(), "op registered twice: " + name);
  if (by_id_.size() <= h.id) by_id_.resize(h.id + 1, nullptr);
  PYPTO_CHECK(by_id_[h.id] == nullptr, "op handle registered twice: " + name);
  auto def = std::make_unique<OpDef>();
  def->handle = h;
  def->name = name;
  OpDef* raw = def.get();
  by_id_[h.id] = raw;
  ops_.emplace(std::move(name), std::move(def));
  return OpBuilder(raw);
}

void OpRegistry::Link() {
  auto twin = [&](const OpDef& d, OpHandle h, const char* what) -> OpDef* {
    if (!h.valid()) return nullptr;
    PYPTO_CHECK(Has(h), fmt::format("op {}: its {} is not registered", d.name, what));
    return by_id_[h.id];
  };
  for (auto& [name, def] : ops_) {
    if (OpDef* s = twin(*def, def->scalar_twin, "scalar twin")) s->binary_twin = def->handle;
    if (OpDef* t = twin(*def, def->tile_twin, "tile twin")) t->tensor_twin = def->handle;
    if (OpDef* b = twin(*def, def->builtin_twin, "builtin twin")) b->collective_twin = def->handle;
    if (OpDef* b = twin(*def, def->builtin_variant, "builtin variant"))
      b->collective_twin = def->handle;
  }
}

const OpDef* OpRegistry::Find(std::string_view name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.get();
}

const OpDef& OpRegistry::Get(OpHandle h) const {
  PYPTO_CHECK(Has(h), fmt::format("no op registered for handle {}", h.id));
  return *by_id_[h.id];
}

std::vector<const OpDef*> OpRegistry::All() const {
  std::vector<const OpDef*> out;
  for (const auto& [name, def] : ops_) out.push_back(def.get());
  return out;
}

Span DeduceContext::ArgSpan(int arg) const {
  if (arg >= 0 && static_cast<size_t>(arg) < arg_spans.size() && arg_spans[arg].IsKnown())
    return arg_spans[arg];
  // A Var/IterArg argument is the defining node itself (uses share it), so its
  // span is the definition's, not this use's: point at the call instead.
  if (arg >= 0 && static_cast<size_t>(arg) < args.size() && args[arg] &&
      args[arg]->span.IsKnown() && !AsVarLike(args[arg]))
    return args[arg]->span;
  return span;
}

Span DeduceContext::KwargSpan(std::string_view kwarg) const {
  for (const auto& [name, s] : kwarg_spans)
    if (name == kwarg && s.IsKnown()) return s;
  return span;
}

const Type* DeduceContext::ErrorAt(int arg, const std::string& msg) {
  had_error = true;
  std::string name = arg >= 0 && static_cast<size_t>(arg) < op.args.size()
                         ? op.args[arg].name
                         : fmt::format("#{}", arg);
  diag.Error(ArgSpan(arg), fmt::format("{}: argument '{}' {}", op.name, name, msg));
  return nullptr;
}

const Type* DeduceContext::Error(const std::string& msg) {
  had_error = true;
  diag.Error(span, fmt::format("{}: {}", op.name, msg));
  return nullptr;
}

const Type* DeduceContext::KwargError(std::string_view kwarg, const std::string& msg) {
  had_error = true;
  diag.Error(KwargSpan(kwarg), fmt::format("{}: keyword '{}' {}", op.name, kwarg, msg));
  return nullptr;
}

static bool KwargTypeMatches(const KwargSpec& spec, const Attr& a) {
  switch (spec.type) {
    case KwargType::kInt:
      return a.kind == Attr::Kind::kInt;
    case KwargType::kEnum:
      return a.kind == Attr::Kind::kInt ||
             (a.kind == Attr::Kind::kEnum && a.enum_kind == spec.enum_kind);
    case KwargType::kBool:
      return a.kind == Attr::Kind::kBool;
    case KwargType::kFloat:
      return a.kind == Attr::Kind::kFloat || a.kind == Attr::Kind::kInt;
    case KwargType::kString:
      return a.kind == Attr::Kind::kString;
    case KwargType::kDType:
      return a.kind == Attr::Kind::kDType;
    case KwargType::kIntList:
      if (a.kind != Attr::Kind::kList) return false;
      for (const auto& e : a.list)
        if (e.kind != Attr::Kind::kInt) return false;
      return true;
    case KwargType::kAny:
      return true;
  }
  return false;
}

static std::string_view KwargTypeName(const KwargSpec& spec) {
  switch (spec.type) {
    case KwargType::kInt:
      return "an int";
    case KwargType::kEnum:
      return GetEnumDesc(spec.enum_kind).prefix;
    case KwargType::kBool:
      return "a bool";
    case KwargType::kFloat:
      return "a float";
    case KwargType::kString:
      return "a string";
    case KwargType::kDType:
      return "a dtype (pl.FP32, ...)";
    case KwargType::kIntList:
      return "a list of ints";
    case KwargType::kAny:
      return "a value";
  }
  return "?";
}

const Call* MakeOpCall(Context& ctx, const OpDef& op, std::vector<const Expr*> args,
                       AttrList kwargs, AttrList attrs, Span span, DiagnosticEngine& diag) {
  return MakeOpCall(ctx, op, std::move(args), std::move(kwargs), std::move(attrs), span, diag,
                    std::vector<Span>{});
}

const Call* MakeOpCall(Context& ctx, const OpDef& op, std::vector<const Expr*> args,
                       AttrList kwargs, AttrList attrs, Span span, DiagnosticEngine& diag,
                       std::vector<Span> arg_spans) {
  return MakeOpCall(ctx, op, std::move(args), std::move(kwargs), std::move(attrs), span, diag,
                    std::move(arg_spans), {});
}

const Call* MakeOpCall(Context& ctx, const OpDef& op, std::vector<const Expr*> args,
                       AttrList kwargs, AttrList attrs, Span span, DiagnosticEngine& diag,
                       std::vector<Span> arg_spans,
                       std::vector<std::pair<std::string, Span>> kwarg_spans) {
  const Type* t = DeduceOpCallType(ctx, op, args, kwargs, span, diag, std::move(arg_spans),
                                   std::move(kwarg_spans));
  if (!t) return nullptr;
  return ctx.Make<Call>(&op, std::string(), std::move(args), std::move(kwargs), std::move(attrs), t,
                        span);
}

const Type* DeduceOpCallType(Context& ctx, const OpDef& op, const std::vector<const Expr*>& args,
                             AttrList& kwargs, Span span, DiagnosticEngine& diag,
                             std::vector<Span> arg_spans,
                             std::vector<std::pair<std::string, Span>> kwarg_spans) {
  DeduceContext dc(ctx, op, args, kwargs, span, diag);
  dc.arg_spans = std::move(arg_spans);
  dc.kwarg_spans = std::move(kwarg_spans);
  bool ok = true;
  if (args.size() < op.min_args || args.size() > op.args.size()) {
    std::string expected = op.min_args == op.args.size()
                               ? fmt::format("{}", op.args.size())
                               : fmt::format("{} to {}", op.min_args, op.args.size());
    std::string names;
    for (size_t i = 0; i < op.args.size(); ++i) names += (i ? ", " : "") + op.args[i].name;
    diag.Error(span, fmt::format("{}: expected {} positional arguments ({}), got {}", op.name,
                                 expected, names, args.size()));
    ok = false;
  }
  for (auto& kw : kwargs) {
    const KwargSpec* spec = op.FindKwarg(kw.name);
    if (!spec) {
      std::string known;
      for (size_t i = 0; i < op.kwargs.size(); ++i) known += (i ? ", " : "") + op.kwargs[i].name;
      diag.Error(dc.KwargSpan(kw.name),
                 fmt::format("{}: unknown keyword argument '{}'{}", op.name, kw.name,
                             known.empty() ? " (it takes none)"
                                           : fmt::format(" (expected one of: {})", known)));
      ok = false;
      continue;
    }
    if (!KwargTypeMatches(*spec, kw.value)) {
      diag.Error(dc.KwargSpan(kw.name), fmt::format("{}: keyword '{}' must be {}", op.name, kw.name,
                                                    KwargTypeName(*spec)));
      ok = false;
      continue;
    }
    if (spec->type == KwargType::kEnum) {
      // Canonical storage is the ABI int payload.
      kw.value = Attr::Int(kw.value.i);
      if (!EnumValueInRange(spec->enum_kind, static_cast<int>(kw.value.i))) {
        const EnumDesc& d = GetEnumDesc(spec->enum_kind);
        std::string members;
        for (size_t i = 0; i < d.members.size(); ++i)
          members += fmt::format("{}{}.{}={}", i ? ", " : "", d.prefix, d.members[i].first,
                                 d.members[i].second);
        diag.Error(dc.KwargSpan(kw.name),
                   fmt::format("{}: keyword '{}' value {} is out of range for {} ({})", op.name,
                               kw.name, kw.value.i, d.prefix, members));
        ok = false;
      }
    }
  }
  for (const auto& spec : op.kwargs) {
    if (spec.required && !FindAttr(kwargs, spec.name)) {
      diag.Error(span,
                 fmt::format("{}: missing required keyword argument '{}'", op.name, spec.name));
      ok = false;
    }
  }
  if (!ok) return nullptr;
  const Type* t = op.deduce(dc);
  if (!t || dc.had_error) return nullptr;
  return t;
}

}  // namespace pypto::ir
