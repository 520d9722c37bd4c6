// flatten-tile-nd-to-2d: in kernels every tile of rank > 2 becomes 2-D
// [prod(leading dims), last dim] (valid_shape merged the same way, dynamic
// extents included); rank-1 tiles are left alone. Tensor windows keep the
// tensor's rank (upstream's contract): only tiles change.
//  * tile.create: rebuilt with the 2-D shape.
//  * tile.load / pld.tile.remote_load of an N-D window: the call keeps its
//    offsets / shapes / valid_shape and gains `tile_2d=True`, which makes the
//    deducer yield the 2-D row-major tile; the defining Var is rebuilt with it.
//    Partial windows (any offsets, any extents) are fine; a valid box that is not
//    a run of whole rows of the 2-D tile (a merged inner dim partly valid) is
//    reported as not supported by the deducer.
//  * tile.store of a flattened tile into an N-D tensor keeps its tensor-rank
//    offsets and gains the `shapes` argument (the original N-D extents).
//  * tile.read / tile.write indices are linearised over the merged dims.
//  * Every other call (elementwise tile ops, pld.tile.* comm ops, ...) is
//    rebuilt with its flattened operands and re-deduced; Vars whose value type
//    changed are rebound (loop iter args / return vars follow via the type).
//  Physical tile shapes may be symbolic here; the PTO emitter requires static ones.
#include "pass_util.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/mutator.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/structural_equal.h"
#include "pypto/ops/ops.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

class Flattener : public IRMutator {
 public:
  Flattener(Context& ctx, DiagnosticEngine& diag) : IRMutator(ctx), diag_(diag), b_(ctx) {}

  const Type* MutateType(const Type* t) override {
    const Type* m = IRMutator::MutateType(t);
    auto* tt = As<TileType>(m);
    if (!tt || tt->rank() <= 2) return m;
    std::optional<TileView> view = tt->view;
    if (view && !view->valid_shape.empty()) view->valid_shape = Merge(view->valid_shape);
    return ctx_.Make<TileType>(Merge(tt->shape), tt->dtype, tt->memory_space, view);
  }

  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    cur_span_ = s->span;
    const Expr* v = MutateExpr(s->value);
    const Var* var = s->var;
    if (v != s->value && Isa<TileType>(v->type) && !StructuralEqual(v->type, var->type)) {
      // The call and its defining Var are rebuilt together. An unchanged call keeps
      // its Var (and the Var's annotated type, e.g. a memory space the call's
      // deduced type lacks), so loop iter args typed from it stay consistent.
      const Var* nv = ctx_.NewVar(var->name_hint, v->type, var->span);
      Substitute(var, nv);
      var = nv;
    } else {
      var = MutateVarDef(var);
    }
    return (v == s->value && var == s->var) ? s : ctx_.Make<AssignStmt>(var, v, s->span);
  }

  const Stmt* Mutate_EvalStmt(const EvalStmt* s) override {
    cur_span_ = s->span;
    return IRMutator::Mutate_EvalStmt(s);
  }

  const Expr* Mutate_Call(const Call* c) override {
    if (!c->op) return IRMutator::Mutate_Call(c);
    bool ch = false;
    std::vector<const Expr*> args = MutateExprs(c->args, &ch);
    AttrList kw = MutateAttrs(c->kwargs, &ch);
    AttrList at = MutateAttrs(c->attrs, &ch);
    auto* orig_tile = As<TileType>(c->type);
    bool nd_result = orig_tile && orig_tile->rank() > 2;
    b_.SetSpan(c->span.IsKnown() ? c->span : cur_span_);
    if (c->Is(ops::kTileCreate) && nd_result) {
      return Try(c, {b_.Tuple(Merge(orig_tile->shape))}, kw, at);
    }
    if ((c->Is(ops::kTileLoad) || c->Is(ops::kPldTileRemoteLoad)) && nd_result)
      return FlattenLoad(c, args, kw, at);
    if (c->Is(ops::kTileStore) && args.size() == 3) {
      auto* old_t = As<TileType>(c->args[0]->type);
      auto* new_t = As<TileType>(args[0]->type);
      if (old_t && new_t && old_t->rank() != new_t->rank()) {
        args.push_back(b_.Tuple(old_t->shape));
        return Try(c, args, kw, at);
      }
    }
    if ((c->Is(ops::kTileRead) || c->Is(ops::kTileWrite)) && args.size() >= 2) {
      auto* old_t = As<TileType>(c->args[0]->type);
      auto* idx = As<MakeTuple>(args[1]);
      if (old_t && old_t->rank() > 2 && idx && idx->elements.size() == old_t->rank()) {
        const Expr* row = idx->elements[0];
        for (size_t k = 1; k + 1 < old_t->rank(); ++k)
          row = b_.Add(b_.Mul(row, old_t->shape[k]), idx->elements[k]);
        args[1] = b_.Tuple({row, idx->elements.back()});
        return Try(c, args, kw, at);
      }
    }
    if (!ch) return c;
    return Try(c, args, kw, at);
  }

 private:
  std::vector<const Expr*> Merge(const std::vector<const Expr*>& dims) {
    return MergeLeadingDims(ctx_, dims);
  }

  const Expr* Try(const Call* c, std::vector<const Expr*> args, AttrList kw, AttrList at) {
    DiagnosticEngine scratch(diag_.sources());
    const Call* r = MakeOpCall(ctx_, *c->op, args, kw, at, c->span, scratch);
    if (r) return r;
    for (const Diagnostic& d : scratch.diagnostics())
      diag_.Error(d.span.IsKnown() ? d.span : cur_span_,
                  "flatten-tile-nd-to-2d: not supported after flattening: " + d.message);
    return c;
  }

  // tile.load / pld.tile.remote_load of an N-D window: the window keeps the
  // tensor's rank, `tile_2d=True` makes the result the 2-D row-major tile.
  const Expr* FlattenLoad(const Call* c, std::vector<const Expr*> args, AttrList kw, AttrList at) {
    for (const auto& a : kw)
      if (a.name == "tile_2d") return Try(c, args, kw, at);
    kw.push_back({"tile_2d", Attr::Bool(true)});
    return Try(c, std::move(args), std::move(kw), std::move(at));
  }

  DiagnosticEngine& diag_;
  IRBuilder b_;
  Span cur_span_;
};

class FlattenTileNdTo2DPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine& diag) override {
    std::vector<const Function*> out;
    bool changed = false;
    for (const Function* f : prog.functions) {
      if (!f->IsKernel()) {
        out.push_back(f);
        continue;
      }
      Flattener fl(ctx, diag);
      const Function* g = fl.MutateFunction(*f);
      changed |= g != f;
      out.push_back(g);
    }
    if (diag.HasErrors()) return nullptr;
    return changed ? util::WithFunctions(ctx, prog, std::move(out)) : &prog;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateFlattenTileNdTo2DPass() {
  return std::make_unique<FlattenTileNdTo2DPass>();
}

}  // namespace pypto::passes
