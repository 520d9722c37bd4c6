// convert-tensor-to-tile-ops: kernels (InCore/AIC/AIV) compute on tiles.
//  * `x = pl.tensor.<op>(a, b)` (elementwise, with a registered pl.tile.<op>)
//    becomes `x = pl.tile.<op>(a_tile, b_tile)`. A tensor parameter operand is
//    loaded once at function entry (`a_tile = pl.tile.load(a, [0, ...], shape,
//    target_memory=pl.Mem.Vec)`), any other GM tensor right before the use.
//    Scalar operands pass through; pl.tensor.add/sub/mul/div with a scalar rhs
//    become pl.tile.adds/subs/muls/divs (as pl.tensor.adds/... do). A nested
//    tensor-valued operand (a view, another element-wise op) is first made its
//    own statement `tmp = ...` (converted like any other).
//  * `x = pl.tensor.assemble(target, src, offset)` becomes
//    `x = pl.tile.store(src_tile, offset, target)`: a converted src is stored
//    from its tile, a GM src is loaded into a Vec tile first (as above).
//  * A converted value returned by the kernel is stored at exit into a new
//    Out parameter `<x>_out` (`x = pl.tile.store(x_tile, [0, ...], x_out)`);
//    every call site passes a fresh `pl.tensor.create(shape, dtype=...)`.
//  * pld.tensor.put(dst, peer, src[, region]; atomic, chunk_rows, chunk_cols,
//    pipeline) -> `tput_stage = pl.tile.create([rows, cols], dtype=...,
//    target_memory=pl.Mem.Vec)` (rows = product of the leading transfer dims, cols
//    = the innermost, each capped by chunk_rows / chunk_cols when non-zero) and
//    `pld.tile.put(dst, peer, src, tput_stage[, region], atomic=...)`; with
//    pipeline=True two stages tput_stage_ping / tput_stage_pong (stage, stage2).
//    pld.tensor.get likewise with tget_stage* and pld.tile.get (no kwargs).
//  * pld.tensor.remote_store -> pld.tile.remote_store 1:1; a GM src is bridged
//    with `pl.tile.load(src, [0, ...], shape, target_memory=pl.Mem.Vec)`.
//  * Parameter directions are upgraded from the registry's declared effects
//    (never downgraded): a written In param becomes Out (InOut when also read).
#include <fmt/format.h>

#include <unordered_set>

#include "pass_util.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/mutator.h"
#include "pypto/ops/ops.h"
#include "pypto/passes/passes.h"
#include "tile_conversion.h"

namespace pypto::passes {

using namespace ir;

namespace {

struct NewOut {
  const Var* param;
  const TensorType* type;
};

class KernelConverter : public IRMutator {
 public:
  KernelConverter(Context& ctx, const Function& f, DiagnosticEngine& diag)
      : IRMutator(ctx), f_(f), diag_(diag), b_(ctx) {
    params_.insert(f.params.begin(), f.params.end());
  }

  std::vector<const Stmt*> entry;                    // entry tile.loads
  std::vector<NewOut> new_outs;                      // appended Out params
  std::unordered_map<const Var*, const Var*> tiles;  // converted tensor var -> tile var

  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    auto* c = As<Call>(s->value);
    if (!c || !NeedsTileConversion(*c)) return IRMutator::Mutate_AssignStmt(s);
    b_.SetSpan(s->span);
    std::vector<const Stmt*> pre;
    if (c->Is(ops::kTensorAssemble)) {
      const Call* st = Assemble(c, pre, s->span);
      if (!st) return s;
      pre.push_back(ctx_.Make<AssignStmt>(MutateVarDef(s->var), st, s->span));
      return util::Seq(ctx_, std::move(pre), s->span);
    }
    if (!IsCommConversion(*c)) {  // element-wise: the op's tile twin
      OpHandle tile_op = c->op->tile_twin;
      std::vector<const Expr*> args;
      for (size_t i = 0; i < c->args.size(); ++i) {
        if (i > 0 && Isa<ScalarType>(c->args[i]->type)) {  // tensor ⊕ scalar
          if (OpHandle st = ops::Get(tile_op).scalar_twin;
              i == 1 && c->args.size() == 2 && st.valid())
            tile_op = st;
          args.push_back(MutateExpr(c->args[i]));
          continue;
        }
        const Expr* t = TileOf(NameNested(c->args[i], "tmp", pre, s->span), pre, s->span);
        if (!t) {
          diag_.Error(c->args[i]->span.IsKnown() ? c->args[i]->span : s->span,
                      fmt::format("convert-tensor-to-tile-ops: {}: operand {} is not a tensor; "
                                  "only tensor-tensor elementwise ops convert to tile ops",
                                  c->OpName(), i));
          return s;
        }
        args.push_back(t);
      }
      const Call* tc = b_.TryOp(tile_op, args, MutateKwargs(c), {}, diag_);
      if (!tc) return s;
      const Var* tv = ctx_.NewVar(s->var->name_hint, tc->type, s->var->span);
      tiles[s->var] = tv;
      pre.push_back(ctx_.Make<AssignStmt>(tv, tc, s->span));
      return util::Seq(ctx_, std::move(pre), s->span);
    }
    const Call* nc = RewriteComm(c, pre, s->span);
    if (!nc) return s;
    pre.push_back(ctx_.Make<AssignStmt>(MutateVarDef(s->var), nc, s->span));
    return util::Seq(ctx_, std::move(pre), s->span);
  }

  const Stmt* Mutate_EvalStmt(const EvalStmt* s) override {
    auto* c = As<Call>(s->expr);
    bool assemble = c && c->Is(ops::kTensorAssemble);
    if (!c || !NeedsTileConversion(*c) || (!assemble && !IsCommConversion(*c)))
      return IRMutator::Mutate_EvalStmt(s);
    b_.SetSpan(s->span);
    std::vector<const Stmt*> pre;
    const Call* nc = assemble ? Assemble(c, pre, s->span) : RewriteComm(c, pre, s->span);
    if (!nc) return s;
    pre.push_back(ctx_.Make<EvalStmt>(nc, s->span));
    return util::Seq(ctx_, std::move(pre), s->span);
  }

  const Stmt* Mutate_ReturnStmt(const ReturnStmt* s) override {
    std::vector<const Stmt*> pre;
    std::vector<const Expr*> vals;
    bool changed = false;
    for (const Expr* v : s->values) {
      const Var* var = AsVarLike(v);
      auto it = var ? tiles.find(var) : tiles.end();
      if (it == tiles.end()) {
        vals.push_back(MutateExpr(v));
        changed |= vals.back() != v;
        continue;
      }
      changed = true;
      auto* tt = util::TensorTypeOf(var);
      const Var* out = ctx_.NewVar(var->name_hint + "_out", tt, s->span);
      new_outs.push_back({out, tt});
      b_.SetSpan(s->span);
      const Call* st =
          b_.TryOp(ops::kTileStore, {it->second, Zeros(tt->rank()), out}, {}, {}, diag_);
      if (!st) return s;
      const Var* res = ctx_.NewVar(var->name_hint, st->type, s->span);
      pre.push_back(ctx_.Make<AssignStmt>(res, st, s->span));
      vals.push_back(res);
    }
    if (!changed) return s;
    pre.push_back(ctx_.Make<ReturnStmt>(vals, s->span));
    return util::Seq(ctx_, std::move(pre), s->span);
  }

 private:
  AttrList MutateKwargs(const Call* c) {
    bool ch = false;
    return MutateAttrs(c->kwargs, &ch);
  }

  const MakeTuple* Zeros(size_t rank) {
    std::vector<const Expr*> z;
    for (size_t i = 0; i < rank; ++i) z.push_back(ctx_.Int(0));
    return b_.Tuple(z);
  }

  // `pl.tile.load(t, [0, ...], shape, target_memory=pl.Mem.Vec)`.
  const Var* LoadTile(const Expr* t, const TensorType* tt, const std::string& name, Span span,
                      std::vector<const Stmt*>& out) {
    b_.SetSpan(span);
    const Call* ld =
        b_.TryOp(ops::kTileLoad, {t, Zeros(tt->rank()), b_.Tuple(tt->shape)},
                 {{"target_memory", Attr::Int(static_cast<int>(MemorySpace::kVec))}}, {}, diag_);
    if (!ld) return nullptr;
    const Var* v = ctx_.NewVar(name, ld->type, span);
    out.push_back(ctx_.Make<AssignStmt>(v, ld, span));
    return v;
  }

  // The tile holding operand `e`: a converted value, a loaded tensor, or a tile.
  const Expr* TileOf(const Expr* e, std::vector<const Stmt*>& pre, Span span) {
    const Var* v = AsVarLike(e);
    if (v) {
      auto it = tiles.find(v);
      if (it != tiles.end()) return it->second;
    }
    const Expr* m = MutateExpr(e);
    if (Isa<TileType>(m->type)) return m;
    const TensorType* tt = util::TensorTypeOf(m);
    if (!tt) return nullptr;
    if (v && params_.count(v)) {
      auto pit = param_tiles_.find(v);
      if (pit != param_tiles_.end()) return pit->second;
      const Var* t = LoadTile(m, tt, v->name_hint + "_tile", f_.span, entry);
      if (t) param_tiles_[v] = t;
      return t;
    }
    return LoadTile(m, tt, (v ? v->name_hint : std::string("tmp")) + "_tile", span, pre);
  }

  // pld.tensor.put / get / remote_store: their tile twins take staging tiles.
  static bool IsCommConversion(const Call& c) {
    return c.Is(ops::kPldTensorPut) || c.Is(ops::kPldTensorGet) || c.Is(ops::kPldTensorRemoteStore);
  }

  // A nested tensor-valued call (`out[0:N, 0:W] = x[0:N, 0:W]`, `pl.mul(x[i:i + 1, :],
  // 2.0)`, `out[...] = pl.mul(x, 2.0)`) becomes its own statement `<hint> = ...` first:
  // a view is then loaded from a Var (what the PTO emitter reads), a nested
  // element-wise op is converted like a top-level one.
  const Expr* NameNested(const Expr* e, const char* hint, std::vector<const Stmt*>& pre,
                         Span span) {
    if (!Isa<Call>(e) || !util::TensorTypeOf(e)) return e;
    const Var* v = ctx_.NewVar(hint, e->type, span);
    if (const Stmt* st = MutateStmt(ctx_.Make<AssignStmt>(v, e, span)))
      for (const Stmt* x : util::StmtList(st)) pre.push_back(x);
    return v;
  }

  // tensor.assemble(target, src, offset) -> tile.store(src_tile, offset, target).
  const Call* Assemble(const Call* c, std::vector<const Stmt*>& pre, Span span) {
    const Expr* src = TileOf(NameNested(c->args[1], "assemble_src", pre, span), pre, span);
    if (!src) {
      diag_.Error(
          c->args[1]->span.IsKnown() ? c->args[1]->span : span,
          fmt::format("convert-tensor-to-tile-ops: {}: the source is not a tensor", c->OpName()));
      return nullptr;
    }
    // A nested view target (`pl.assemble(y[0:4, :], src, [0, 0])`) is named too.
    const Expr* target = NameNested(c->args[0], "assemble_dst", pre, span);
    b_.SetSpan(span);
    return b_.TryOp(c->op->tile_twin, {src, MutateExpr(c->args[2]), MutateExpr(target)}, {},
                    c->attrs, diag_);
  }

  // rows/cols of the staging tile for a transfer of `extent`.
  bool StageShape(const Call* c, const std::vector<const Expr*>& extent, const Expr** rows,
                  const Expr** cols, Span span) {
    const Attr* cr = FindAttr(c->kwargs, "chunk_rows");
    const Attr* cc = FindAttr(c->kwargs, "chunk_cols");
    int64_t chunk_rows = cr ? cr->i : 0, chunk_cols = cc ? cc->i : 0;
    int64_t r = 1, col = -1;  // -1 = dynamic
    for (size_t i = 0; i + 1 < extent.size(); ++i) {
      auto* ci = As<ConstInt>(extent[i]);
      r = (!ci || r < 0) ? -1 : r * ci->value;
    }
    if (!extent.empty())
      if (auto* ci = As<ConstInt>(extent.back())) col = ci->value;
    if (chunk_rows > 0) r = r >= 0 ? std::min(r, chunk_rows) : chunk_rows;
    if (chunk_cols > 0) col = col >= 0 ? std::min(col, chunk_cols) : chunk_cols;
    if (r < 0 || col < 0) {
      diag_.Error(span,
                  fmt::format("convert-tensor-to-tile-ops: {}: the transfer extent is "
                              "dynamic; set chunk_rows / chunk_cols to bound the staging tile",
                              c->OpName()));
      return false;
    }
    *rows = ctx_.Int(r);
    *cols = ctx_.Int(col);
    return true;
  }

  const Call* RewriteComm(const Call* c, std::vector<const Stmt*>& pre, Span span) {
    bool ch = false;
    std::vector<const Expr*> args = MutateExprs(c->args, &ch);
    if (c->Is(ops::kPldTensorRemoteStore)) {
      // A converted value or a tile passes through; a GM source is bridged by
      // a load right before the store (not hoisted: the tensor may change).
      const Expr* src = nullptr;
      if (const Var* v = AsVarLike(c->args[0]); v && tiles.count(v))
        src = tiles.at(v);
      else if (Isa<TileType>(args[0]->type))
        src = args[0];
      else if (const TensorType* tt = util::TensorTypeOf(args[0])) {
        const Var* v = AsVarLike(c->args[0]);
        src = LoadTile(args[0], tt, (v ? v->name_hint : std::string("src")) + "_tile", span, pre);
      }
      if (!src) return nullptr;
      args[0] = src;
      AttrList kw;
      if (const Attr* a = FindAttr(c->kwargs, "atomic")) kw.push_back({"atomic", *a});
      return b_.TryOp(c->op->tile_twin, args, kw, c->attrs, diag_);
    }
    bool is_put = c->Is(ops::kPldTensorPut);
    // Transfer extent: the region shape when given, else the window side's shape.
    std::vector<const Expr*> extent;
    if (args.size() >= 6) {
      if (auto* mt = As<MakeTuple>(args[5])) extent = mt->elements;
    } else if (auto* tt = util::TensorTypeOf(args[is_put ? 0 : 2])) {
      extent = tt->shape;
    }
    const Expr *rows = nullptr, *cols = nullptr;
    if (!StageShape(c, extent, &rows, &cols, span)) return nullptr;
    auto* dt = util::TensorTypeOf(args[0]);
    if (!dt) return nullptr;
    const Attr* pl = FindAttr(c->kwargs, "pipeline");
    bool pipeline = pl && pl->b;
    std::string base = is_put ? "tput_stage" : "tget_stage";
    auto make_stage = [&](const std::string& name) -> const Var* {
      const Call* cr = b_.TryOp(ops::kTileCreate, {b_.Tuple({rows, cols})},
                                {{"dtype", Attr::DType(dt->dtype)},
                                 {"target_memory", Attr::Int(static_cast<int>(MemorySpace::kVec))}},
                                {}, diag_);
      if (!cr) return nullptr;
      const Var* v = ctx_.NewVar(name, cr->type, span);
      pre.push_back(ctx_.Make<AssignStmt>(v, cr, span));
      return v;
    };
    std::vector<const Expr*> nargs(args.begin(), args.begin() + 3);
    if (pipeline) {
      const Var* ping = make_stage(base + "_ping");
      const Var* pong = make_stage(base + "_pong");
      if (!ping || !pong) return nullptr;
      nargs.push_back(ping);
      nargs.push_back(pong);
    } else {
      const Var* st = make_stage(base);
      if (!st) return nullptr;
      nargs.push_back(st);
    }
    for (size_t i = 3; i < args.size(); ++i) nargs.push_back(args[i]);
    AttrList kw;
    if (is_put)
      if (const Attr* a = FindAttr(c->kwargs, "atomic")) kw.push_back({"atomic", *a});
    return b_.TryOp(c->op->tile_twin, nargs, kw, c->attrs, diag_);
  }

  const Function& f_;
  DiagnosticEngine& diag_;
  IRBuilder b_;
  std::unordered_set<const Var*> params_;
  std::unordered_map<const Var*, const Var*> param_tiles_;
};

// Reports uses of converted tensor values that were not rewritten.
void CheckLeftoverUses(const Stmt* body, const std::unordered_map<const Var*, const Var*>& tiles,
                       DiagnosticEngine& diag) {
  class V : public IRVisitor {
   public:
    V(const std::unordered_map<const Var*, const Var*>& t, DiagnosticEngine& d)
        : tiles(t), diag(d) {}
    void VisitStmt(const Stmt* s) override {
      if (s) cur = s;
      IRVisitor::VisitStmt(s);
    }
    void Visit_Var(const Var* v) override { Check(v); }
    void Visit_IterArg(const IterArg* v) override { Check(v); }
    void Check(const Var* v) {
      if (!tiles.count(v) || reported.count(v)) return;
      reported.insert(v);
      diag.Error(cur ? cur->span : Span{},
                 fmt::format("convert-tensor-to-tile-ops: '{}' is computed by tensor ops that "
                             "become tile ops, so it can only feed other element-wise tensor "
                             "ops, the source of tensor.assemble, pld.tensor.remote_store or the "
                             "kernel's return; this use is not supported",
                             v->name_hint));
    }
    const std::unordered_map<const Var*, const Var*>& tiles;
    DiagnosticEngine& diag;
    const Stmt* cur = nullptr;
    std::unordered_set<const Var*> reported;
  } v(tiles, diag);
  v.VisitStmt(body);
}

// Appends `pl.tensor.create` outputs at every call of a kernel that gained Out params.
class CallSiteUpdater : public IRMutator {
 public:
  CallSiteUpdater(Context& ctx, const std::unordered_map<std::string, std::vector<NewOut>>& outs)
      : IRMutator(ctx), outs_(outs), b_(ctx) {}
  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    std::vector<const Stmt*> pre;
    const Expr* nv = Rewrite(s->value, pre, s->span);
    if (!nv) return IRMutator::Mutate_AssignStmt(s);
    pre.push_back(ctx_.Make<AssignStmt>(MutateVarDef(s->var), nv, s->span));
    return util::Seq(ctx_, std::move(pre), s->span);
  }
  const Stmt* Mutate_EvalStmt(const EvalStmt* s) override {
    std::vector<const Stmt*> pre;
    const Expr* nv = Rewrite(s->expr, pre, s->span);
    if (!nv) return IRMutator::Mutate_EvalStmt(s);
    pre.push_back(ctx_.Make<EvalStmt>(nv, s->span));
    return util::Seq(ctx_, std::move(pre), s->span);
  }

 private:
  const Expr* Rewrite(const Expr* e, std::vector<const Stmt*>& pre, Span span) {
    auto* c = As<Call>(e);
    if (!c || c->op) return nullptr;
    auto it = outs_.find(c->callee);
    if (it == outs_.end()) return nullptr;
    bool ch = false;
    std::vector<const Expr*> args = MutateExprs(c->args, &ch);
    b_.SetSpan(span);
    for (const NewOut& o : it->second) {
      const Call* cr = b_.Op(ops::kTensorCreate, {b_.Tuple(o.type->shape)},
                             {{"dtype", Attr::DType(o.type->dtype)}});
      const Var* v = ctx_.NewVar(o.param->name_hint, cr->type, span);
      pre.push_back(ctx_.Make<AssignStmt>(v, cr, span));
      args.push_back(v);
    }
    return ctx_.Make<Call>(nullptr, c->callee, std::move(args), c->kwargs,
                           MutateAttrs(c->attrs, &ch), c->type, c->span);
  }
  const std::unordered_map<std::string, std::vector<NewOut>>& outs_;
  IRBuilder b_;
};

class ConvertTensorToTileOpsPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine& diag) override {
    std::vector<const Function*> out;
    std::unordered_map<std::string, std::vector<NewOut>> outs;
    bool changed = false;
    for (const Function* f : prog.functions) {
      if (!f->IsKernel()) {
        out.push_back(f);
        continue;
      }
      KernelConverter kc(ctx, *f, diag);
      const Stmt* body = kc.MutateStmt(f->body);
      CheckLeftoverUses(body, kc.tiles, diag);
      std::vector<const Stmt*> stmts = kc.entry;
      for (const Stmt* s : util::StmtList(body)) stmts.push_back(s);
      Function* nf = util::CloneFunction(ctx, *f);
      nf->body = kc.entry.empty() ? body : util::Seq(ctx, std::move(stmts), f->body->span);
      for (const NewOut& o : kc.new_outs) {
        nf->params.push_back(o.param);
        nf->param_dirs.push_back(ParamDirection::kOut);
      }
      if (!kc.new_outs.empty()) outs[f->name] = kc.new_outs;
      // Direction upgrades from declared effects.
      auto access = util::AnalyzeAccess(&prog, nf->body);
      for (size_t i = 0; i < nf->params.size(); ++i) {
        auto it = access.find(nf->params[i]);
        if (it == access.end() || !util::TensorTypeOf(nf->params[i])) continue;
        ParamDirection& d = nf->param_dirs[i];
        if (it->second.written && d == ParamDirection::kIn)
          d = it->second.read ? ParamDirection::kInOut : ParamDirection::kOut;
        else if (it->second.read && d == ParamDirection::kOut && !IsNewOut(kc, nf->params[i]))
          d = ParamDirection::kInOut;
      }
      bool same = nf->body == f->body && nf->params == f->params && nf->param_dirs == f->param_dirs;
      out.push_back(same ? f : nf);
      changed |= !same;
    }
    if (diag.HasErrors()) return nullptr;
    if (!outs.empty()) {
      for (const Function*& f : out) {
        if (outs.count(f->name)) continue;
        CallSiteUpdater up(ctx, outs);
        const Stmt* body = up.MutateStmt(f->body);
        if (body == f->body) continue;
        Function* nf = util::CloneFunction(ctx, *f);
        nf->body = body;
        f = nf;
      }
    }
    return changed ? util::WithFunctions(ctx, prog, std::move(out)) : &prog;
  }

 private:
  static bool IsNewOut(const KernelConverter& kc, const Var* p) {
    for (const NewOut& o : kc.new_outs)
      if (o.param == p) return true;
    return false;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateConvertTensorToTileOpsPass() {
  return std::make_unique<ConvertTensorToTileOpsPass>();
}

}  // namespace pypto::passes
