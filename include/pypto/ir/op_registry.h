// The op registry: one builder-style registration per op, carrying everything
// the rest of the compiler asks about an op — documentation, positional argument
// names, the typed kwarg schema, the type deducer (which IS the verifier: it
// returns the result type or reports diagnostics pointing at the offending
// argument), core affinity, the no-duplicate bit, per-argument effects (possibly
// kwarg-dependent), input memory-space requirements, and where the op may appear.
// Passes, the emitter and the executor query this instead of matching names:
// each op has a stable OpHandle (the ops layer declares them, in
// include/pypto/ops/op_list.def), and code compares handles or asks the traits
// declared here. Text names are for the text boundary only.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pypto/core/diagnostics.h"
#include "pypto/ir/attr.h"
#include "pypto/ir/expr.h"
#include "pypto/ir/op_handle.h"

namespace pypto::ir {

class Context;

enum class CoreAffinity { kDerived, kCube, kVector, kShared, kMixed };
enum class ArgEffect { kRead, kWrite, kReadWrite };
// Where a call to the op may appear.
enum class OpPlacement { kAnywhere, kHostOnly, kKernelOnly };

// What kind of op this is, for code that treats a family alike.
enum class OpFamily : uint8_t {
  kOther,
  kElementwise,        // tensor.<name> / tile.<name> of two operands (add, maximum, ...)
  kElementwiseScalar,  // the tile ⊕ scalar twin of an element-wise op (adds, ...)
  kCollective,         // pld.tensor.<collective>
  kBuiltinCollective,  // builtin.tensor.<collective>: the HOST dispatch of one
};

enum class KwargType { kInt, kBool, kFloat, kString, kDType, kEnum, kIntList, kAny };

struct KwargSpec {
  std::string name;
  KwargType type = KwargType::kInt;
  EnumKind enum_kind = EnumKind::kCount;  // kEnum: payload stored as Attr::Int
  bool required = false;
  std::optional<Attr> default_value;  // informational (DSL docs); not materialised
  std::string doc;
};

struct ArgSpec {
  std::string name;
  std::string doc;
};

class DeduceContext;
using DeduceFn = std::function<const Type*(DeduceContext&)>;
using EffectFn = std::function<ArgEffect(const AttrList& kwargs)>;

struct OpDef {
  OpHandle handle;   // stable identity (pypto/ops/ops.h)
  std::string name;  // canonical full name, e.g. "pld.system.notify"
  std::string doc;
  std::string category;       // "TensorOp", "TileOp", "SyncOp", "DistributedOp", ...
  std::vector<ArgSpec> args;  // positional argument names (the maximal form)
  size_t min_args = 0;        // optional trailing args: min_args..args.size()
  std::vector<KwargSpec> kwargs;
  DeduceFn deduce;
  CoreAffinity affinity = CoreAffinity::kDerived;
  bool no_duplicate = false;
  std::map<int, EffectFn> effects;  // undeclared args read
  bool effects_declared = false;    // set_arg_effect / no_arg_writes was called
  std::map<int, std::vector<MemorySpace>> input_memory;
  std::optional<MemorySpace> output_memory;
  // The op has a memory spec: the memory space of its result tile says which core
  // runs it (ClassifyCallAffinity's memory rule). False for an op whose result
  // space is the caller's choice rather than the core's (pld.tile.remote_load).
  bool memory_spec = true;
  bool internal_only = false;  // compiler output only: rejected in user source
  OpPlacement placement = OpPlacement::kAnywhere;

  // ---- traits: facts other layers ask about an op, declared once here ----------
  OpFamily family = OpFamily::kOther;
  // The element-wise op a scalar twin belongs to (tile.adds -> tile.add), and the
  // other way round (tile.add -> tile.adds; unset when there is none).
  OpHandle binary_twin;
  OpHandle scalar_twin;
  // The tile op a tensor op becomes inside a kernel (tensor.add -> tile.add,
  // pld.tensor.put -> pld.tile.put); unset when convert-tensor-to-tile-ops keeps it.
  OpHandle tile_twin;
  // The tensor op a tile op is the kernel form of (the inverse of tile_twin).
  OpHandle tensor_twin;
  // A collective's HOST dispatch (pld.tensor.allreduce -> builtin.tensor.allreduce),
  // and, for a builtin, the collective it dispatches.
  OpHandle builtin_twin;
  OpHandle collective_twin;
  // An element-wise op's meaning on two scalars (tile.add: BinaryOp::kAdd): the
  // parser dispatches `pl.add(a, b)` and infix `a + b` through it.
  std::optional<BinaryOp> scalar_op;
  // An argument that must be a parameter of the calling kernel itself, not a
  // local alias of one (defer_wait's signal, V1); the verifier checks it, since
  // only it knows which Vars are parameters. -1: none.
  int param_only_arg = -1;
  // The argument whose type (and buffer) the call returns; -1 when none.
  int returned_arg = -1;
  // A kwarg-dependent HOST dispatch: with string kwarg `variant_kwarg` equal to
  // `variant_value` the collective lowers to `builtin_variant` instead of
  // builtin_twin (pld.tensor.allreduce mode="ring" -> builtin.tensor.allreduce_ring).
  std::string variant_kwarg, variant_value;
  OpHandle builtin_variant;
  // In place: a call passing the same value as arguments in_place_args[0] and
  // [1] works in place (allgather of a pre-staged window: input is target).
  int in_place_args[2] = {-1, -1};

  bool Is(OpHandle h) const { return handle == h; }
  // The text name's last segment ("allreduce"), for names generated after the op.
  std::string_view ShortName() const { return std::string_view(name).substr(name.rfind('.') + 1); }
  // The HOST builtin a call with `kwargs` dispatches to (builtin_variant or builtin_twin).
  OpHandle BuiltinFor(const AttrList& kwargs) const {
    const Attr* a = variant_kwarg.empty() ? nullptr : FindAttr(kwargs, variant_kwarg);
    bool variant = a && a->kind == Attr::Kind::kString && a->s == variant_value;
    return variant ? builtin_variant : builtin_twin;
  }
  // True when `args` passes one value as both in-place arguments.
  bool InPlace(const std::vector<const Expr*>& args) const {
    size_t a = static_cast<size_t>(in_place_args[0]), b = static_cast<size_t>(in_place_args[1]);
    return in_place_args[0] >= 0 && a < args.size() && b < args.size() && args[a] == args[b];
  }
  ArgEffect EffectOf(int arg, const AttrList& kwargs) const {
    auto it = effects.find(arg);
    return it == effects.end() ? ArgEffect::kRead : it->second(kwargs);
  }
  const KwargSpec* FindKwarg(std::string_view k) const {
    for (const auto& s : kwargs)
      if (s.name == k) return &s;
    return nullptr;
  }
  int ArgIndex(std::string_view a) const {
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].name == a) return static_cast<int>(i);
    return -1;
  }
};

// Fluent registration handle.
class OpBuilder {
 public:
  explicit OpBuilder(OpDef* d) : d_(d) {}
  OpBuilder& Doc(std::string s) {
    d_->doc = std::move(s);
    return *this;
  }
  OpBuilder& Category(std::string s) {
    d_->category = std::move(s);
    return *this;
  }
  OpBuilder& Arg(std::string name, std::string doc = {}) {
    d_->args.push_back({std::move(name), std::move(doc)});
    d_->min_args = d_->args.size();
    return *this;
  }
  // Marks all following Arg()s optional (trailing). Call after the required ones.
  OpBuilder& OptionalArg(std::string name, std::string doc = {}) {
    size_t m = d_->min_args;
    d_->args.push_back({std::move(name), std::move(doc)});
    d_->min_args = m;
    return *this;
  }
  OpBuilder& Kwarg(std::string name, KwargType t, std::string doc = {},
                   std::optional<Attr> def = std::nullopt) {
    d_->kwargs.push_back(
        {std::move(name), t, EnumKind::kCount, false, std::move(def), std::move(doc)});
    return *this;
  }
  OpBuilder& EnumKwarg(std::string name, EnumKind e, std::string doc = {},
                       std::optional<int> def = std::nullopt) {
    std::optional<Attr> d;
    if (def) d = Attr::Int(*def);
    d_->kwargs.push_back(
        {std::move(name), KwargType::kEnum, e, false, std::move(d), std::move(doc)});
    return *this;
  }
  OpBuilder& RequiredKwarg(std::string name, KwargType t, std::string doc = {},
                           EnumKind e = EnumKind::kCount) {
    d_->kwargs.push_back({std::move(name), t, e, true, std::nullopt, std::move(doc)});
    return *this;
  }
  OpBuilder& Deduce(DeduceFn f) {
    d_->deduce = std::move(f);
    return *this;
  }
  OpBuilder& Affinity(CoreAffinity a) {
    d_->affinity = a;
    return *this;
  }
  OpBuilder& NoDuplicate() {
    d_->no_duplicate = true;
    return *this;
  }
  OpBuilder& NoMemorySpec() {
    d_->memory_spec = false;
    return *this;
  }
  OpBuilder& Effect(int arg, ArgEffect e) {
    d_->effects[arg] = [e](const AttrList&) { return e; };
    d_->effects_declared = true;
    return *this;
  }
  OpBuilder& Effect(int arg, EffectFn f) {
    d_->effects[arg] = std::move(f);
    d_->effects_declared = true;
    return *this;
  }
  OpBuilder& NoArgWrites() {
    d_->effects_declared = true;
    return *this;
  }
  OpBuilder& InputMemory(int arg, std::vector<MemorySpace> spaces) {
    d_->input_memory[arg] = std::move(spaces);
    return *this;
  }
  OpBuilder& OutputMemory(MemorySpace m) {
    d_->output_memory = m;
    return *this;
  }
  OpBuilder& InternalOnly() {
    d_->internal_only = true;
    return *this;
  }
  OpBuilder& Family(OpFamily f) {
    d_->family = f;
    return *this;
  }
  OpBuilder& TileTwin(OpHandle h) {
    d_->tile_twin = h;
    return *this;
  }
  OpBuilder& BuiltinTwin(OpHandle h) {
    d_->builtin_twin = h;
    return *this;
  }
  OpBuilder& ScalarTwin(OpHandle h) {
    d_->scalar_twin = h;
    return *this;
  }
  OpBuilder& ScalarOp(BinaryOp op) {
    d_->scalar_op = op;
    return *this;
  }
  OpBuilder& ParamOnlyArg(int arg) {
    d_->param_only_arg = arg;
    return *this;
  }
  OpBuilder& ReturnsArg(int arg) {
    d_->returned_arg = arg;
    return *this;
  }
  OpBuilder& BuiltinVariant(std::string kwarg, std::string value, OpHandle h) {
    d_->variant_kwarg = std::move(kwarg);
    d_->variant_value = std::move(value);
    d_->builtin_variant = h;
    return *this;
  }
  OpBuilder& InPlaceWhenSame(int a, int b) {
    d_->in_place_args[0] = a;
    d_->in_place_args[1] = b;
    return *this;
  }
  OpBuilder& Placement(OpPlacement p) {
    d_->placement = p;
    return *this;
  }
  OpDef& def() { return *d_; }

 private:
  OpDef* d_;
};

class OpRegistry {
 public:
  // The process-wide registry, filled on first use by FillOpRegistry (below)
  // with every op when the program links the ops library; empty otherwise.
  static const OpRegistry& Global();

  // The registry object itself, before filling: for FillOpRegistry and tests.
  static OpRegistry& Mutable();

  // Registers op `h` under its canonical text name. Twins named by handle
  // (tile_twin, ...) are linked both ways by Link() once every op is in.
  OpBuilder Register(OpHandle h, std::string name);
  // Sets the inverse twins (binary_twin, tensor_twin, collective_twin) from the
  // declared ones; checks every declared twin is registered.
  void Link();
  // Text boundary: the op spelled `name`, or nullptr.
  const OpDef* Find(std::string_view name) const;
  // The op of a handle (checked: the handle must be registered).
  const OpDef& Get(OpHandle h) const;
  bool Has(OpHandle h) const { return h.id < by_id_.size() && by_id_[h.id] != nullptr; }
  size_t size() const { return ops_.size(); }
  std::vector<const OpDef*> All() const;  // sorted by name

 private:
  std::map<std::string, std::unique_ptr<OpDef>, std::less<>> ops_;
  std::vector<OpDef*> by_id_;
};

// Everything a deducer sees. Report problems through Error()/ErrorAt(); a
// deducer returns nullptr after reporting.
class DeduceContext {
 public:
  DeduceContext(Context& c, const OpDef& o, const std::vector<const Expr*>& a, const AttrList& kw,
                Span s, DiagnosticEngine& d)
      : ctx(c), op(o), args(a), kwargs(kw), span(s), diag(d) {}

  Context& ctx;
  const OpDef& op;
  const std::vector<const Expr*>& args;
  const AttrList& kwargs;
  Span span;  // the call
  DiagnosticEngine& diag;

  // "<op>: argument '<name>' <msg>" at the argument's position (the call's when
  // unknown). Returns nullptr so deducers can `return ErrorAt(...)`.
  const Type* ErrorAt(int arg, const std::string& msg);
  // "<op>: <msg>" at the call, or at a kwarg named `kwarg` when given.
  const Type* Error(const std::string& msg);
  const Type* KwargError(std::string_view kwarg, const std::string& msg);

  const Attr* Kwarg(std::string_view name) const { return FindAttr(kwargs, name); }
  int64_t IntKwarg(std::string_view name, int64_t def) const {
    const Attr* a = Kwarg(name);
    return a && (a->kind == Attr::Kind::kInt || a->kind == Attr::Kind::kEnum) ? a->i : def;
  }
  bool BoolKwarg(std::string_view name, bool def) const {
    const Attr* a = Kwarg(name);
    return a && a->kind == Attr::Kind::kBool ? a->b : def;
  }
  Span ArgSpan(int arg) const;
  bool had_error = false;
  // Where each argument was written at this call (a Var's own span is its
  // definition, not this use). Optional: entries with an unknown span, and
  // arguments past the end, fall back to the argument's own span.
  std::vector<Span> arg_spans;
  // Where each keyword's value was written at this call, by keyword name.
  // Optional: a keyword without an entry (or with an unknown span) reports at the call.
  std::vector<std::pair<std::string, Span>> kwarg_spans;
  Span KwargSpan(std::string_view kwarg) const;
};

// Builds a call to a registered op after checking arity and the kwarg schema
// (unknown kwarg, wrong kwarg type, missing required kwarg, enum payload out of
// range) and running the deducer. Returns nullptr with diagnostics on failure.
const Call* MakeOpCall(Context& ctx, const OpDef& op, std::vector<const Expr*> args,
                       AttrList kwargs, AttrList attrs, Span span, DiagnosticEngine& diag);

// Same, with the use-site span of every argument (see DeduceContext::arg_spans),
// so argument diagnostics point at the argument as written in this call.
const Call* MakeOpCall(Context& ctx, const OpDef& op, std::vector<const Expr*> args,
                       AttrList kwargs, AttrList attrs, Span span, DiagnosticEngine& diag,
                       std::vector<Span> arg_spans);

// Same, also with the use-site span of keyword values (see
// DeduceContext::kwarg_spans), so keyword diagnostics point at the value.
const Call* MakeOpCall(Context& ctx, const OpDef& op, std::vector<const Expr*> args,
                       AttrList kwargs, AttrList attrs, Span span, DiagnosticEngine& diag,
                       std::vector<Span> arg_spans,
                       std::vector<std::pair<std::string, Span>> kwarg_spans);

// Fills `r` with every op: defined by the ops library (pypto_ops,
// src/ops/ops.cc), called once by OpRegistry::Global() on first use. The IR
// layer references it weakly, so a program that links only pypto_ir has an
// empty registry (the parser then reports every op as unknown). CMake links
// pypto_ops whole-archive, so every program that links it has the definition.
void FillOpRegistry(OpRegistry& r);

}  // namespace pypto::ir
