// Call lowering: calls of program functions (`self.f(...)` or bare `f(...)`,
// with `device=` and `attrs=`), and calls of registered ops by canonical name
// (`pl.tile.load` -> op "tile.load", `pld.system.notify` stays). Keyword
// arguments are matched first against the op's kwarg schema (converted to Attr
// by the declared type, enums by dotted name), then against its positional
// argument names; `attrs={...}` becomes compiler attrs. Unknown ops get an
// edit-distance suggestion. The op's deducer (via MakeOpCall) verifies the rest.
#include <fmt/format.h>

#include <algorithm>

#include "../op_deduce.h"
#include "lower.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/printer.h"
#include "text_names.h"

namespace pypto::ir::parser {

namespace {

// Optimal-string-alignment distance: insert, delete, substitute, and swap of two
// adjacent characters ("laod" -> "load") each cost 1.
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> pprev(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], pprev[j - 2] + 1);
    }
    std::swap(pprev, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string Lowerer::SuggestOp(const std::string& printed) {
  if (printed.size() > 80) return "";
  std::string best;
  size_t best_d = std::max<size_t>(2, printed.size() / 4) + 1;
  for (const OpDef* op : OpRegistry::Global().All()) {
    std::string cand = text::PrintedOpName(op->name);
    size_t d = EditDistance(printed, cand);
    if (d < best_d) {
      best_d = d;
      best = cand;
    }
  }
  return best;
}

const OpDef* Lowerer::FindOpOrReport(const std::string& printed, Span s) {
  std::string name = printed.rfind("pl.", 0) == 0 ? printed.substr(3) : printed;
  if (const OpDef* op = OpRegistry::Global().Find(name)) return op;
  std::string hint = SuggestOp(printed);
  Error(s, fmt::format("unknown op '{}'{}", printed,
                       hint.empty() ? "" : fmt::format("; did you mean '{}'?", hint)));
  return nullptr;
}

const Expr* Lowerer::LowerArg(const PyExpr* e) {
  if (e->kind == EK::kList || e->kind == EK::kTuple) return LowerList(e);
  return LowerExpr(e);
}

bool Lowerer::LowerPositional(const PyExpr* call, std::vector<const Expr*>* out) {
  bool ok = true;
  out->reserve(out->size() + call->items.size());
  for (const PyExpr* a : call->items) {
    const Expr* v = LowerArg(a);
    ok &= v != nullptr;
    out->push_back(v);
  }
  return ok;
}

Span Lowerer::UseSpan(const PyExpr* e) {
  while (e && (e->kind == EK::kBinary || e->kind == EK::kCompare || e->kind == EK::kBoolOp) && e->a)
    e = e->a;
  return e ? e->span : Span{};
}

std::optional<Attr> Lowerer::LowerAttr(const PyExpr* e, const KwargSpec* spec) {
  if (spec && spec->type == KwargType::kEnum) {
    auto ev = EnumOf(e);
    if (ev && ev->first == spec->enum_kind) return Attr::Int(ev->second);
    // A bare name must denote a member of this enum (or an int constant, the
    // member's value, as before); anything else is reported as what it is.
    const ConstVal* c = NamedConst(e);
    if (e->kind == EK::kName && !LookupVar(e->str) && (!c || c->k != ConstVal::K::kInt)) {
      Error(e->span, fmt::format("keyword '{}' expects a {} value; {}", spec->name,
                                 GetEnumDesc(spec->enum_kind).prefix, DescribeName(e)));
      return std::nullopt;
    }
    if (ev || DottedName(e).find('.') != std::string::npos) {
      Error(e->span, fmt::format("keyword '{}' expects a {} value, got '{}'", spec->name,
                                 GetEnumDesc(spec->enum_kind).prefix, DottedName(e)));
      return std::nullopt;
    }
  }
  if (spec && spec->type == KwargType::kDType && e->kind == EK::kName && !DTypeOf(e) &&
      !LookupVar(e->str)) {
    Error(e->span, fmt::format("keyword '{}' expects a dtype such as pl.FP32; {}", spec->name,
                               DescribeName(e)));
    return std::nullopt;
  }
  switch (e->kind) {
    case EK::kInt:
    case EK::kFloat:
    case EK::kBool:
    case EK::kString: {
      auto c = EvalConst(e, true);
      if (!c) return std::nullopt;
      if (c->k == ConstVal::K::kInt) {
        if (spec && spec->type == KwargType::kFloat) return Attr::Float(double(c->i));
        return Attr::Int(c->i);
      }
      if (c->k == ConstVal::K::kFloat) return Attr::Float(c->f);
      if (c->k == ConstVal::K::kBool) return Attr::Bool(c->b);
      return Attr::Str(c->s);
    }
    case EK::kNone:
      return Attr{};
    case EK::kList:
    case EK::kTuple: {
      std::vector<Attr> items;
      for (const PyExpr* x : e->items) {
        auto a = LowerAttr(x, spec);
        if (!a) return std::nullopt;
        items.push_back(*a);
      }
      return Attr::List(std::move(items));
    }
    case EK::kName: {
      auto it = consts_.find(e->str);
      if (it != consts_.end() && !LookupVar(e->str)) {
        std::function<Attr(const ConstVal&)> conv = [&](const ConstVal& c) -> Attr {
          switch (c.k) {
            case ConstVal::K::kInt:
              return Attr::Int(c.i);
            case ConstVal::K::kFloat:
              return Attr::Float(c.f);
            case ConstVal::K::kBool:
              return Attr::Bool(c.b);
            case ConstVal::K::kStr:
              return Attr::Str(c.s);
            case ConstVal::K::kDType:
              return Attr::DType(c.dt);
            case ConstVal::K::kEnum:
              return Attr::Enum(c.ek, static_cast<int>(c.i));
            case ConstVal::K::kList: {
              std::vector<Attr> l;
              for (const ConstVal& x : c.list) l.push_back(conv(x));
              return Attr::List(std::move(l));
            }
          }
          return Attr{};
        };
        return conv(it->second);
      }
      break;
    }
    case EK::kAttr: {
      if (auto dt = DTypeOf(e)) return Attr::DType(*dt);
      if (auto ev = EnumOf(e)) return Attr::Enum(ev->first, ev->second);
      break;
    }
    case EK::kUnary:
    case EK::kBinary:
      if (auto c = EvalConst(e, false)) {
        if (c->k == ConstVal::K::kInt) return Attr::Int(c->i);
        if (c->k == ConstVal::K::kFloat) return Attr::Float(c->f);
      }
      break;
    default:
      break;
  }
  const Expr* x = LowerExpr(e);
  if (!x) return std::nullopt;
  return Attr::Of(x);
}

const Expr* Lowerer::BuildOpCall(const OpDef& op, std::vector<const Expr*> pos, const PyExpr* call,
                                 const std::vector<std::string>& skip, AttrList extra) {
  Span span = call->span;
  // Only diagnostics need the printed name.
  auto printed = [&op] { return text::PrintedOpName(op.name); };
  if (op.internal_only && !opts_.allow_internal_ops) {
    Error(span, fmt::format("{} is internal compiler output and cannot be written in user code",
                            printed()));
    return nullptr;
  }
  bool ok = true;
  for (const Expr* p : pos) ok &= p != nullptr;
  AttrList kwargs = std::move(extra), attrs;
  const size_t n_pos = pos.size();
  std::vector<const Expr*> slots = std::move(pos);
  // Use-site spans (a Var argument's own span is its definition), so the op
  // verifier points at each argument as written here. pos[i] is call->items[i].
  // They only matter for diagnostics: a call without keywords is deduced
  // first without them, and they are built only when there is an error to report.
  const bool lazy_spans = call->kwargs.empty();
  std::vector<Span> spans;
  auto positional_spans = [&] {
    spans.reserve(n_pos);
    for (size_t i = 0; i < n_pos; ++i)
      spans.push_back(i < call->items.size() ? UseSpan(call->items[i]) : span);
  };
  if (!lazy_spans) positional_spans();
  std::vector<std::pair<std::string, Span>> kwarg_spans;  // keyword values, same purpose
  for (const Keyword& kw : call->kwargs) {
    if (std::find(skip.begin(), skip.end(), kw.name) != skip.end()) continue;
    if (kw.name == "attrs") {
      if (kw.value->kind != EK::kDict) {
        Error(kw.value->span, "attrs= must be a dict literal such as {\"key\": value}");
        ok = false;
        continue;
      }
      for (size_t i = 0; i < kw.value->items.size(); ++i) {
        const PyExpr* k = kw.value->items[i];
        if (k->kind != EK::kString) {
          Error(k->span, "attrs= keys must be string literals");
          ok = false;
          continue;
        }
        auto a = LowerAttr(kw.value->values[i], nullptr);
        if (!a)
          ok = false;
        else
          attrs.push_back({k->str, *a});
      }
      continue;
    }
    if (const KwargSpec* spec = op.FindKwarg(kw.name)) {
      auto a = LowerAttr(kw.value, spec);
      if (!a)
        ok = false;
      else
        kwargs.push_back({kw.name, *a});
      kwarg_spans.emplace_back(kw.name, UseSpan(kw.value));
      continue;
    }
    int idx = op.ArgIndex(kw.name);
    if (idx < 0) {
      std::string args, kws;
      for (size_t i = 0; i < op.args.size(); ++i) args += (i ? ", " : "") + op.args[i].name;
      for (size_t i = 0; i < op.kwargs.size(); ++i) kws += (i ? ", " : "") + op.kwargs[i].name;
      Error(kw.span, fmt::format("{}: unknown keyword argument '{}' (arguments: {}; keywords: "
                                 "{})",
                                 printed(), kw.name, args.empty() ? "none" : args,
                                 kws.empty() ? "none" : kws));
      ok = false;
      continue;
    }
    size_t u = static_cast<size_t>(idx);
    if (u < n_pos) {
      Error(kw.span, fmt::format("{}: argument '{}' given both positionally and by keyword",
                                 printed(), kw.name));
      ok = false;
      continue;
    }
    if (slots.size() <= u) slots.resize(u + 1, nullptr);
    if (spans.size() <= u) spans.resize(u + 1, span);
    const Expr* v = LowerArg(kw.value);
    if (!v) ok = false;
    slots[u] = v;
    spans[u] = UseSpan(kw.value);
  }
  if (!ok) return nullptr;
  for (size_t i = n_pos; i < slots.size(); ++i) {
    if (!slots[i]) {
      Error(span, fmt::format("{}: missing argument '{}' (given later arguments by keyword)",
                              printed(), op.args[i].name));
      return nullptr;
    }
  }
  if (op.name == "pld.tensor.alloc_window_buffer" && !FindAttr(kwargs, "name")) {
    if (!alloc_name_) {
      Error(span, fmt::format("{} must be the right-hand side of a plain `name = ...` "
                              "assignment (the window is named after the assigned variable)",
                              printed()));
      return nullptr;
    }
    kwargs.push_back({"name", Attr::Str(*alloc_name_)});
    alloc_name_ = nullptr;
  }
  if (lazy_spans) {
    // MakeOpCall without spans, its diagnostics held back; on failure the call
    // is deduced again below with spans, which reports (deducers are pure).
    DiagnosticEngine held(diag_.sources());
    if (const Type* t = DeduceOpCallType(ctx_, op, slots, kwargs, span, held, {}, {}))
      return ctx_.Make<Call>(&op, std::string(), std::move(slots), std::move(kwargs),
                             std::move(attrs), t, span);
    positional_spans();
  }
  return MakeOpCall(ctx_, op, std::move(slots), std::move(kwargs), std::move(attrs), span, diag_,
                    std::move(spans), std::move(kwarg_spans));
}

// A tensor argument whose static shape differs from the parameter's but holds
// as many elements of the same dtype (upstream passes a `[SIZE]` window to a
// `[1, SIZE]` parameter) is reshaped explicitly: `pl.tensor.view(arg, shape)`.
// Anything else is left for the verifier to report.
const Expr* Lowerer::ReshapeToParam(const Expr* arg, const Var* param) {
  const TensorType* a = AsTensorTypeLike(arg->type);
  const TensorType* p = param ? AsTensorTypeLike(param->type) : nullptr;
  if (!a || !p || a->kind != p->kind || a->dtype != p->dtype || a->view || p->view ||
      ShapesCompatible(a->shape, p->shape))
    return arg;
  auto na = StaticNumel(a->shape), np = StaticNumel(p->shape);
  if (!na || !np || *na != *np) return arg;
  std::vector<const Expr*> dims;
  std::vector<const Type*> types;
  for (const Expr* d : p->shape) {
    dims.push_back(ctx_.Int(*StaticInt(d), DataType::kIndex, arg->span));
    types.push_back(dims.back()->type);
  }
  const Expr* shape =
      ctx_.Make<MakeTuple>(std::move(dims), ctx_.Make<TupleType>(std::move(types)), arg->span);
  const OpDef* view = OpRegistry::Global().Find("tensor.view");
  const Call* c = view ? MakeOpCall(ctx_, *view, {arg, shape}, {}, {}, arg->span, diag_) : nullptr;
  return c ? c : arg;
}

const Expr* Lowerer::LowerFunctionCall(size_t fidx, const PyExpr* e) {
  FuncEntry& fe = funcs_[fidx];
  std::vector<const Expr*> args;
  bool ok = LowerPositional(e, &args);
  AttrList attrs;
  for (const Keyword& kw : e->kwargs) {
    if (kw.name == "device") {
      const Expr* d = LowerScalar(kw.value, "device=");
      if (!d)
        ok = false;
      else
        attrs.push_back({"device", Attr::Of(d)});
    } else if (kw.name == "attrs" && kw.value->kind == EK::kDict) {
      for (size_t i = 0; i < kw.value->items.size(); ++i) {
        const PyExpr* k = kw.value->items[i];
        auto a = k->kind == EK::kString ? LowerAttr(kw.value->values[i], nullptr) : std::nullopt;
        if (k->kind != EK::kString) Error(k->span, "attrs= keys must be string literals");
        if (!a)
          ok = false;
        else
          attrs.push_back({k->str, *a});
      }
    } else {
      Error(kw.span, fmt::format("call of function '{}': unexpected keyword argument '{}'; "
                                 "functions take positional arguments plus optional device= "
                                 "and attrs=",
                                 fe.fn->name, kw.name));
      ok = false;
    }
  }
  if (!ok) return nullptr;
  if (fe.sig_done && args.size() != fe.fn->params.size()) {
    std::string names;
    for (size_t i = 0; i < fe.fn->params.size(); ++i)
      names += (i ? ", " : "") + fe.fn->params[i]->name_hint;
    Error(e->span, fmt::format("function '{}' takes {} argument{} ({}), got {}", fe.fn->name,
                               fe.fn->params.size(), fe.fn->params.size() == 1 ? "" : "s", names,
                               args.size()));
    return nullptr;
  }
  if (fe.sig_done)
    for (size_t i = 0; i < args.size(); ++i) args[i] = ReshapeToParam(args[i], fe.fn->params[i]);
  if (!fe.returns_declared && !fe.lowered && !fe.lowering) LowerBody(fidx);
  const Type* t = ctx_.Unknown();
  const auto& rts = fe.fn->return_types;
  if (rts.size() == 1)
    t = rts[0];
  else if (rts.size() > 1)
    t = ctx_.Make<TupleType>(rts);
  return ctx_.Make<Call>(nullptr, fe.fn->name, std::move(args), AttrList{}, std::move(attrs), t,
                         e->span);
}

// DottedName(e) written into `out` (reusing its capacity); false, with `out`
// empty, when `e` is not a dotted name.
static bool DottedNameInto(const PyExpr* e, std::string* out) {
  out->clear();
  constexpr int kMaxParts = 16;
  std::string_view parts[kMaxParts];
  int n = 0;
  const PyExpr* x = e;
  for (; x && x->kind == EK::kAttr; x = x->a) {
    if (n == kMaxParts - 1) {  // unusually deep: the general routine
      *out = DottedName(e);
      return !out->empty();
    }
    parts[n++] = x->str;
  }
  if (!x || x->kind != EK::kName) return false;
  parts[n++] = x->str;
  for (int i = n - 1; i >= 0; --i) {
    out->append(parts[i]);
    if (i) out->push_back('.');
  }
  return true;
}

const Expr* Lowerer::LowerCall(const PyExpr* e) {
  // A name already resolved to a plain op call below (every check before that
  // depends on the name alone). The name is built in a reused buffer: lowering
  // the arguments may re-enter LowerCall, so it is only read before that.
  DottedNameInto(e->a, &call_name_buf_);
  if (auto it = plain_ops_.find(call_name_buf_); it != plain_ops_.end()) {
    std::vector<const Expr*> pos;
    if (!LowerPositional(e, &pos)) return nullptr;
    return BuildOpCall(*it->second, std::move(pos), e);
  }
  std::string name = call_name_buf_;
  if (name.empty()) {
    Error(e->span, "only ops (pl.*, pld.*) and functions of the program can be called");
    return nullptr;
  }
  if (name.rfind("self.", 0) == 0 && name.find('.', 5) == std::string::npos) {
    auto it = func_index_.find(name.substr(5));
    if (it != func_index_.end()) return LowerFunctionCall(it->second, e);
    Error(e->span, fmt::format("unknown function '{}' (the program has no function named '{}')",
                               name, name.substr(5)));
    return nullptr;
  }
  if (name == "float" || (name.size() > 9 && name.substr(name.size() - 9) == ".get_byte")) {
    auto c = EvalConst(e, true);
    return c ? ConstToExpr(*c, e->span) : nullptr;
  }
  if (name.find('.') == std::string::npos) {
    auto it = func_index_.find(name);
    if (it != func_index_.end()) return LowerFunctionCall(it->second, e);
    Error(e->span, fmt::format("unknown function '{}'", name));
    return nullptr;
  }
  static const std::pair<const char*, const char*> kContextual[] = {
      {"pl.yield_", "pl.yield_ must be a statement or the right-hand side of an assignment"},
      {"pl.cond", "pl.cond(...) must be the first statement of a pl.while_ loop body"},
      {"pl.range", "pl.range is only allowed as the iterable of a for loop"},
      {"pl.parallel", "pl.parallel is only allowed as the iterable of a for loop"},
      {"pl.unroll", "pl.unroll is only allowed as the iterable of a for loop"},
      {"pl.pipeline", "pl.pipeline is only allowed as the iterable of a for loop"},
      {"pl.while_", "pl.while_ is only allowed as the iterable of a for loop"},
      {"pl.split_aiv", "pl.split_aiv is only allowed as the iterable of a for loop"},
      {"pl.dynamic", "pl.dynamic is only allowed at module level: N = pl.dynamic(\"N\")"},
      {"pl.at", "pl.at is only allowed in a with statement"},
      {"pl.spmd", "pl.spmd is only allowed in a with statement"},
      {"pld.comm_domain", "pld.comm_domain is only allowed in a with statement"},
  };
  for (const auto& [n, msg] : kContextual) {
    if (name == n) {
      Error(e->span, msg);
      return nullptr;
    }
  }
  if (name.rfind("pl.", 0) != 0 && name.rfind("pld.", 0) != 0) {
    Error(e->span,
          fmt::format("unknown function '{}'; ops are called as pl.<...> or pld.<...>", name));
    return nullptr;
  }
  bool handled = false;
  const Expr* r = LowerShortForm(name, e, &handled);
  if (handled) return r;
  const OpDef* op = FindOpOrReport(name, e->span);
  if (!op) return nullptr;
  plain_ops_.emplace(name, op);
  std::vector<const Expr*> pos;
  if (!LowerPositional(e, &pos)) return nullptr;
  return BuildOpCall(*op, std::move(pos), e);
}

}  // namespace pypto::ir::parser
