// flatten-tile-nd-to-2d: in kernels every tile of rank > 2 becomes 2-D
// [prod(leading dims), last dim] (valid_shape merged the same way); rank-1
// tiles are left alone.
//  * tile.create: rebuilt with the 2-D shape.
//  * tile.load of an N-D region: the op's deducer always yields a tensor-rank
//    tile, so the load reads a 2-D view of the tensor instead:
//    `x_2d = pl.tensor.view(x, [prod(leading), last])` and a 2-D window. This
//    needs the merged inner dims to be covered fully (region extent == tensor
//    dim, offset 0), otherwise "not supported" is reported.
//  * tile.store of a flattened tile into an N-D tensor keeps its tensor-rank
//    offsets and gains the `shapes` argument (the original N-D extents).
//  * tile.read / tile.write indices are linearised over the merged dims.
//  * Every other call (elementwise tile ops, pld.tile.* comm ops, ...) is
//    rebuilt with its flattened operands and re-deduced; Vars whose value type
//    changed are rebound (loop iter args / return vars follow via the type).
//  * pld.tile.remote_load of an N-D window still deduces an N-D tile: reported as
//    not supported (give it a 2-D window shape).
#include <fmt/format.h>

#include "pass_util.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/mutator.h"
#include "pypto/ir/printer.h"
#include "pypto/ir/structural_equal.h"
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
    pre_.clear();
    const Expr* v = MutateExpr(s->value);
    const Var* var = s->var;
    if (Isa<TileType>(v->type) && !StructuralEqual(v->type, var->type)) {
      const Var* nv = ctx_.NewVar(var->name_hint, v->type, var->span);
      Substitute(var, nv);
      var = nv;
    } else {
      var = MutateVarDef(var);
    }
    const Stmt* a = (v == s->value && var == s->var) ? s : ctx_.Make<AssignStmt>(var, v, s->span);
    if (pre_.empty()) return a;
    std::vector<const Stmt*> out = std::move(pre_);
    pre_.clear();
    out.push_back(a);
    return util::Seq(ctx_, std::move(out), s->span);
  }

  const Stmt* Mutate_EvalStmt(const EvalStmt* s) override {
    cur_span_ = s->span;
    pre_.clear();
    const Stmt* r = IRMutator::Mutate_EvalStmt(s);
    if (pre_.empty()) return r;
    std::vector<const Stmt*> out = std::move(pre_);
    pre_.clear();
    out.push_back(r);
    return util::Seq(ctx_, std::move(out), s->span);
  }

  const Expr* Mutate_Call(const Call* c) override {
    if (!c->op) return IRMutator::Mutate_Call(c);
    bool ch = false;
    std::vector<const Expr*> args = MutateExprs(c->args, &ch);
    AttrList kw = MutateAttrs(c->kwargs, &ch);
    AttrList at = MutateAttrs(c->attrs, &ch);
    std::string_view n = c->OpName();
    auto* orig_tile = As<TileType>(c->type);
    bool nd_result = orig_tile && orig_tile->rank() > 2;
    b_.SetSpan(c->span.IsKnown() ? c->span : cur_span_);
    if (n == "tile.create" && nd_result) {
      return Try(c, {b_.Tuple(Merge(orig_tile->shape))}, kw, at);
    }
    if (n == "tile.load" && nd_result) return FlattenLoad(c, args, kw, at);
    if (n == "tile.store" && args.size() == 3) {
      auto* old_t = As<TileType>(c->args[0]->type);
      auto* new_t = As<TileType>(args[0]->type);
      if (old_t && new_t && old_t->rank() != new_t->rank()) {
        args.push_back(b_.Tuple(old_t->shape));
        return Try(c, args, kw, at);
      }
    }
    if ((n == "tile.read" || n == "tile.write") && args.size() >= 2) {
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
    if (n == "pld.tile.remote_load" && nd_result) {
      diag_.Error(c->span.IsKnown() ? c->span : cur_span_,
                  fmt::format("flatten-tile-nd-to-2d: pld.tile.remote_load: a rank-{} window "
                              "shape is not supported; read a 2-D window (leading dims merged)",
                              orig_tile->rank()));
      return c;
    }
    if (!ch) return c;
    return Try(c, args, kw, at);
  }

 private:
  std::vector<const Expr*> Merge(const std::vector<const Expr*>& dims) {
    if (dims.size() <= 2) return dims;
    IRBuilder b(ctx_);
    const Expr* rows = dims[0];
    for (size_t k = 1; k + 1 < dims.size(); ++k) rows = b.Mul(rows, dims[k]);
    return {rows, dims.back()};
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

  const Expr* FlattenLoad(const Call* c, std::vector<const Expr*> args, AttrList kw, AttrList at) {
    const TensorType* tt = util::TensorTypeOf(args[0]);
    auto* off = As<MakeTuple>(args[1]);
    auto* shp = As<MakeTuple>(args[2]);
    auto* vs = args.size() >= 4 ? As<MakeTuple>(args[3]) : nullptr;
    Span sp = c->span.IsKnown() ? c->span : cur_span_;
    if (!tt || !off || !shp || (args.size() >= 4 && !vs)) {
      diag_.Error(sp, "flatten-tile-nd-to-2d: tile.load: offsets/shapes must be tuples");
      return c;
    }
    size_t r = tt->rank();
    for (size_t k = 1; k + 1 < r; ++k) {
      auto* e = As<ConstInt>(shp->elements[k]);
      auto* d = As<ConstInt>(tt->shape[k]);
      auto* o = As<ConstInt>(off->elements[k]);
      bool valid_full = !vs || StructuralEqual(vs->elements[k], shp->elements[k]);
      if (!e || !d || !o || e->value != d->value || o->value != 0 || !valid_full) {
        diag_.Error(sp, fmt::format("flatten-tile-nd-to-2d: tile.load: dim {} of the region ({}) "
                                    "does not cover the tensor dim ({}) from offset 0; a 2-D tile "
                                    "needs contiguous rows, so this N-D load is not supported",
                                    k, PrintExpr(shp->elements[k]), PrintExpr(tt->shape[k])));
        return c;
      }
    }
    // Row offset = off[0] * prod(inner merged dims).
    const Expr* inner = ctx_.Int(1);
    for (size_t k = 1; k + 1 < r; ++k) inner = b_.Mul(inner, tt->shape[k]);
    const Expr* row_off = b_.Mul(off->elements[0], inner);
    const Call* view = nullptr;
    {
      DiagnosticEngine scratch(diag_.sources());
      view = MakeOpCall(ctx_, *OpRegistry::Global().Find("tensor.view"),
                        {args[0], b_.Tuple(Merge(tt->shape))}, {}, {}, c->span, scratch);
      if (!view) {
        for (const Diagnostic& d : scratch.diagnostics())
          diag_.Error(sp, "flatten-tile-nd-to-2d: tile.load: cannot view the tensor as 2-D: " +
                              d.message);
        return c;
      }
    }
    std::string base = "t";
    if (auto* v = AsVarLike(c->args[0])) base = v->name_hint;
    const Var* vv = ctx_.NewVar(base + "_2d", view->type, sp);
    pre_.push_back(ctx_.Make<AssignStmt>(vv, view, sp));
    std::vector<const Expr*> nargs{vv, b_.Tuple({row_off, off->elements.back()}),
                                   b_.Tuple(Merge(shp->elements))};
    if (vs) nargs.push_back(b_.Tuple(Merge(vs->elements)));
    return Try(c, nargs, kw, at);
  }

  DiagnosticEngine& diag_;
  IRBuilder b_;
  Span cur_span_;
  std::vector<const Stmt*> pre_;
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
