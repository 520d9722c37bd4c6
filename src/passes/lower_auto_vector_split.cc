// lower-auto-vector-split: lowers the explicit split-AIV regions of kernels
// (`for aiv_id in pl.split_aiv(2, mode=...)`) in place, so later passes and the
// emitter see a plain AIV body that runs on both vector lanes (sub-blocks) of a
// core and tells them apart with tile.get_subblock_idx().
//
// Region path (every InCore / AIV kernel containing SplitAivScopeStmts):
//  * the wrapper is erased and its body spliced into the parent, preceded by
//    `aiv_id = pl.tile.get_subblock_idx()` (the region's index Var);
//  * mode None: task-parallel, the body is spliced unchanged (both lanes run it);
//  * mode UP_DOWN / LEFT_RIGHT: the body is written full-width and each lane
//    does half of it: every tile's shape is halved on dim 0 (UP_DOWN) or dim 1
//    (LEFT_RIGHT) and the tensor offsets of tile.load / tile.store on that dim
//    are localised by `aiv_id * half`; tile.create shapes are halved; every
//    other tile op is rebuilt on the halved operands and must give the halved
//    result (element-wise work). Anything else inside a halved region — a tile
//    op whose result is not the halved shape, odd or dynamic split extents, a
//    tile defined outside the region, tile.load / tile.store of a tensor that is
//    not 2-D or with a partial valid_shape, tile-typed while / if carries (a for
//    loop may carry halved tiles),
//    function calls, pld.tile.* transfers — is reported as not supported;
//  * calls of SHARED ops declared NoDuplicate (pld.system.notify) inside a
//    region get attr core_placement="aiv", so a later AIC/AIV split keeps them
//    on the vector lane only;
//  * the function gets attrs split_aiv=2 and split_aiv_region_validated=True.
// AUTO path (function attr split=UP_DOWN/LEFT_RIGHT, written on the kernel or
// set by outline-incore-scopes):
//  * a pure-vector kernel is honoured, not ignored: its whole body (all but a
//    trailing return) is lowered as one region of that mode, so each lane does
//    half of it (upstream leaves this to a later SplitVectorKernel pass; the
//    result is the same kernel). What cannot be halved is reported as for a
//    region, naming the kernel and its split;
//  * a genuinely MIXED kernel (cube and vector work) is reported as not
//    supported (the halving of its vector part and the cube/vector boundary
//    moves are not implemented), as is a kernel with both a function-level
//    split and explicit regions.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "ir_walk.h"
#include "pass_util.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/enums.h"
#include "pypto/ir/mutator.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ops/affinity.h"
#include "pypto/ops/ops.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

const TileType* TileOf(const Expr* e) { return e ? As<TileType>(e->type) : nullptr; }

std::string ModeName(int64_t v) {
  return EnumValueName(EnumKind::kSplitMode, static_cast<int>(v)).value_or(std::to_string(v));
}

// Rewrites one halved region body (mode UP_DOWN -> dim 0, LEFT_RIGHT -> dim 1).
class Halver : public IRMutator {
 public:
  Halver(Context& ctx, int dim, const Var* lane, std::string what, DiagnosticEngine& diag)
      : IRMutator(ctx), b_(ctx), dim_(dim), lane_(lane), what_(std::move(what)), diag_(diag) {}

  bool failed = false;

  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    if (failed) return s;
    hint_ = TileOf(s->var);
    const Expr* v = Rewrite(s->value, s->span);
    hint_ = nullptr;
    if (!v) return s;
    const Var* var = s->var;
    if (v->type != s->var->type) {
      var = ctx_.Make<Var>(s->var->name_hint, v->type, ctx_.NextVarId(), s->var->span);
      Substitute(s->var, var);
    }
    if (v == s->value && var == s->var) return s;
    return ctx_.Make<AssignStmt>(var, v, s->span);
  }
  const Stmt* Mutate_EvalStmt(const EvalStmt* s) override {
    if (failed) return s;
    const Expr* v = Rewrite(s->expr, s->span);
    if (!v) return s;
    return v == s->expr ? s : ctx_.Make<EvalStmt>(v, s->span);
  }
  // A for loop carrying tiles: each tile iter arg must start from a halved tile
  // of the region; it (and its return var) takes the halved type.
  const Stmt* Mutate_ForStmt(const ForStmt* s) override {
    bool carries_tile = false;
    for (const IterArg* ia : s->iter_args) carries_tile |= TileOf(ia) != nullptr;
    if (!carries_tile || failed) return IRMutator::Mutate_ForStmt(s);
    const Expr* start = MutateExpr(s->start);
    const Expr* stop = MutateExpr(s->stop);
    const Expr* step = MutateExpr(s->step);
    const Var* lv = MutateVarDef(s->loop_var);
    std::vector<const IterArg*> ias;
    for (const IterArg* ia : s->iter_args) {
      const Expr* init = MutateExpr(ia->init);
      if (TileOf(ia) && init == ia->init) {
        Unsupported(s->span, "a loop carrying tile '" + ia->name_hint +
                                 "' whose initial value "
                                 "is not computed in the region");
        return s;
      }
      const IterArg* n =
          ctx_.NewIterArg(ia->name_hint, TileOf(ia) ? init->type : ia->type, init, ia->span);
      Substitute(ia, n);
      ias.push_back(n);
    }
    const Stmt* body = MutateStmt(s->body);
    if (failed) return s;
    const YieldStmt* y = util::TrailingYield(body);
    std::vector<const Var*> rv;
    for (size_t k = 0; k < s->return_vars.size(); ++k) {
      const Var* v = s->return_vars[k];
      const Type* t = k < ias.size() ? ias[k]->type : v->type;
      if (TileOf(v) && (!y || k >= y->values.size() || y->values[k]->type != t)) {
        Unsupported(s->span, "a loop whose yielded tile '" + v->name_hint +
                                 "' is not the "
                                 "halved carried tile");
        return s;
      }
      const Var* nv = t == v->type ? v : ctx_.Make<Var>(v->name_hint, t, ctx_.NextVarId(), v->span);
      if (nv != v) Substitute(v, nv);
      rv.push_back(nv);
    }
    return ctx_.Make<ForStmt>(lv, start, stop, step, std::move(ias), body, std::move(rv),
                              s->for_kind, s->attrs, s->span);
  }
  const Stmt* Mutate_WhileStmt(const WhileStmt* s) override {
    for (const IterArg* ia : s->iter_args)
      if (TileOf(ia))
        return Unsupported(s->span, "a loop carrying a tile (iter_arg '" + ia->name_hint + "')"), s;
    return IRMutator::Mutate_WhileStmt(s);
  }
  const Stmt* Mutate_IfStmt(const IfStmt* s) override {
    for (const Var* v : s->return_vars)
      if (TileOf(v))
        return Unsupported(s->span, "an if yielding a tile ('" + v->name_hint + "')"), s;
    return IRMutator::Mutate_IfStmt(s);
  }

 private:
  void Unsupported(Span span, const std::string& why) {
    if (failed) return;
    failed = true;
    diag_.Error(span, fmt::format("lower-auto-vector-split: {} inside {} is not "
                                  "supported; only full-width element-wise tile work "
                                  "(tile.load / tile.store of 2-D tensors, tile.create, "
                                  "element-wise tile ops) can be halved",
                                  why, what_));
  }

  // The halved extent of a static, even dimension, or nullopt (reported).
  std::optional<int64_t> Half(const Expr* d, Span span, const std::string& of) {
    auto v = StaticInt(d);
    if (!v || *v % 2 != 0 || *v < 2) {
      Unsupported(span, v ? fmt::format("{} whose split extent {} is odd", of, *v)
                          : fmt::format("{} whose split extent is dynamic", of));
      return std::nullopt;
    }
    return *v / 2;
  }

  const MakeTuple* HalveTuple(const Expr* t, int64_t half) {
    auto* mt = As<MakeTuple>(t);
    std::vector<const Expr*> el = mt->elements;
    el[dim_] = b_.Int(half);
    return b_.Tuple(el);
  }
  const MakeTuple* Localise(const Expr* t, int64_t half) {
    auto* mt = As<MakeTuple>(MutateExpr(t));
    std::vector<const Expr*> el = mt->elements;
    el[dim_] = b_.Add(el[dim_], b_.Mul(lane_, b_.Int(half)));
    return b_.Tuple(el);
  }

  const Call* Build(const Call& c, std::vector<const Expr*> args, AttrList attrs, Span span) {
    DiagnosticEngine scratch;
    AttrList kwargs = c.kwargs;
    // A tile.load / tile.create whose space was inferred (the result type holds
    // it, the call has no target_memory) keeps it explicitly.
    const TileType* ot = hint_ ? hint_ : TileOf(&c);
    if (ot && ot->memory_space && !FindAttr(kwargs, "target_memory") &&
        c.op->FindKwarg("target_memory"))
      kwargs.push_back({"target_memory",
                        Attr::Enum(EnumKind::kMemorySpace, static_cast<int>(*ot->memory_space))});
    const Call* r =
        b_.TryOp(c.op->handle, std::move(args), std::move(kwargs), std::move(attrs), scratch);
    if (!r)
      Unsupported(span, fmt::format("{} on halved tiles (it does not type-check at half size)",
                                    c.OpName()));
    return r;
  }

  // Ops addressing tensor regions, which the split does not halve: the tensor
  // ops but tensor.read, and the distributed ops other than the rank / comm
  // context queries (pld.tile.*, pld.tensor.*).
  static bool AddressesTensorRegions(const OpDef& d) {
    if (d.category == "TensorOp") return !d.Is(ops::kTensorRead);
    return d.category == "DistributedOp" && d.family != OpFamily::kBuiltinCollective &&
           !d.Is(ops::kPldWorldSize) && !d.Is(ops::kPldGetCommCtx) && !d.Is(ops::kPldRank) &&
           !d.Is(ops::kPldNranks);
  }

  // The rewritten value, or nullptr after an error.
  const Expr* Rewrite(const Expr* e, Span span) {
    auto* c = As<Call>(e);
    if (!c) return MutateExpr(e);
    b_.SetSpan(c->span.IsKnown() ? c->span : span);
    if (!c->op)
      return Unsupported(span, fmt::format("the function call self.{}", c->callee)), nullptr;
    std::string_view op = c->OpName();
    AttrList attrs = c->attrs;
    if (c->op->no_duplicate && ClassifyCallAffinity(c) == CoreAffinity::kShared &&
        !FindAttr(attrs, kCorePlacementAttr))
      attrs.push_back({kCorePlacementAttr, Attr::Str("aiv")});
    if (AddressesTensorRegions(*c->op))
      return Unsupported(span, fmt::format("{} (its tensor regions are not halved)", op)), nullptr;
    if (c->Is(ops::kTileSetValidshape) || c->Is(ops::kTileRead) || c->Is(ops::kTileWrite))
      return Unsupported(span, fmt::format("{} (its extents / indices are not localised)", op)),
             nullptr;
    if (c->Is(ops::kTileLoad)) {
      const TileType* rt = TileOf(c);
      auto* shape = As<MakeTuple>(c->args[2]);
      if (!rt || !shape || shape->elements.size() != 2 || rt->rank() != 2)
        return Unsupported(span, "tile.load of a tensor that is not 2-D"), nullptr;
      if (c->args.size() > 3 && !SameExprs(As<MakeTuple>(c->args[3]), shape))
        return Unsupported(span, "tile.load with a partial valid_shape"), nullptr;
      auto half = Half(shape->elements[dim_], span, c->op->name);
      if (!half) return nullptr;
      std::vector<const Expr*> args = {MutateExpr(c->args[0]), Localise(c->args[1], *half),
                                       HalveTuple(shape, *half)};
      if (c->args.size() > 3) args.push_back(HalveTuple(shape, *half));
      return Build(*c, std::move(args), attrs, span);
    }
    if (c->Is(ops::kTileStore)) {
      const TileType* tt = TileOf(c->args[0]);
      auto* offs = As<MakeTuple>(c->args[1]);
      if (!tt || !offs || offs->elements.size() != 2)
        return Unsupported(span, "tile.store into a tensor that is not 2-D"), nullptr;
      const Expr* src = MutateExpr(c->args[0]);
      if (src == c->args[0])
        return Unsupported(span, fmt::format("tile.store of a tile not computed in the region")),
               nullptr;
      auto half = StaticInt(TileOf(src)->shape[dim_]);
      std::vector<const Expr*> args = {src, Localise(offs, *half), MutateExpr(c->args[2])};
      if (c->args.size() > 3) {
        auto* shp = As<MakeTuple>(c->args[3]);
        if (!shp) return Unsupported(span, "tile.store with non-literal shapes"), nullptr;
        args.push_back(HalveTuple(shp, *half));
      }
      return Build(*c, std::move(args), attrs, span);
    }
    if (c->Is(ops::kTileCreate)) {
      auto* shape = As<MakeTuple>(c->args[0]);
      if (!shape || shape->elements.size() != 2)
        return Unsupported(span, "tile.create of a non-2-D tile"), nullptr;
      auto half = Half(shape->elements[dim_], span, c->op->name);
      if (!half) return nullptr;
      return Build(*c, {HalveTuple(shape, *half)}, attrs, span);
    }
    // Any other op: operands substituted; tile operands must all be halved tiles
    // of this region, tuple operands (regions, indices) are not localisable.
    bool tile_operand = false, any_tile = TileOf(c) != nullptr;
    for (const Expr* a : c->args) any_tile |= TileOf(a) != nullptr;
    std::vector<const Expr*> args;
    for (const Expr* a : c->args) {
      if (Isa<MakeTuple>(a) && any_tile)
        return Unsupported(span, fmt::format("{} with an index/shape tuple operand", op)), nullptr;
      const Expr* m = MutateExpr(a);
      if (TileOf(a)) {
        if (m == a) {
          const Var* v = AsVarLike(a);
          Unsupported(span, fmt::format("{} of tile '{}' defined outside the region", op,
                                        v ? v->name_hint : std::string("?")));
          return nullptr;
        }
        tile_operand = true;
      }
      args.push_back(m);
    }
    if (!tile_operand) {
      if (TileOf(c)) return Unsupported(span, fmt::format("{} creating a tile", op)), nullptr;
      bool changed = false;
      for (size_t i = 0; i < args.size(); ++i) changed |= args[i] != c->args[i];
      if (!changed && attrs.size() == c->attrs.size()) return c;
      if (!changed)
        return ctx_.Make<Call>(c->op, std::string(), c->args, c->kwargs, attrs, c->type, c->span);
      return Build(*c, std::move(args), attrs, span);
    }
    const Call* r = Build(*c, std::move(args), attrs, span);
    if (!r) return nullptr;
    const TileType* ot = TileOf(c);
    const TileType* nt = TileOf(r);
    if (ot) {
      auto full = StaticInt(ot->shape[dim_]);
      auto got = nt ? StaticInt(nt->shape[dim_]) : std::nullopt;
      if (!nt || !full || !got || *got * 2 != *full)
        return Unsupported(span, fmt::format("{} (not element-wise: its result is not the "
                                             "halved tile)",
                                             op)),
               nullptr;
    } else if (!As<ScalarType>(r->type) && !Isa<UnknownType>(r->type) && !util::TensorTypeOf(r)) {
      return Unsupported(span, fmt::format("{}", op)), nullptr;
    } else if (As<ScalarType>(r->type)) {
      return Unsupported(span, fmt::format("{} (a scalar computed from a halved tile differs "
                                           "per lane)",
                                           op)),
             nullptr;
    }
    return r;
  }

  static bool SameExprs(const MakeTuple* a, const MakeTuple* b) {
    if (!a || !b || a->elements.size() != b->elements.size()) return false;
    for (size_t i = 0; i < a->elements.size(); ++i) {
      auto x = StaticInt(a->elements[i]), y = StaticInt(b->elements[i]);
      if (a->elements[i] != b->elements[i] && (!x || !y || *x != *y)) return false;
    }
    return true;
  }

  IRBuilder b_;
  const TileType* hint_ = nullptr;  // the assigned Var's tile type (memory space)
  int dim_;
  const Var* lane_;
  std::string what_;
  DiagnosticEngine& diag_;
};

// Stamps core_placement="aiv" on NoDuplicate SHARED calls (mode None bodies).
class Stamper : public IRMutator {
 public:
  explicit Stamper(Context& ctx) : IRMutator(ctx) {}
  const Expr* Mutate_Call(const Call* c) override {
    const Expr* r = IRMutator::Mutate_Call(c);
    auto* rc = As<Call>(r);
    if (!rc || !rc->op || !rc->op->no_duplicate ||
        ClassifyCallAffinity(rc) != CoreAffinity::kShared ||
        FindAttr(rc->attrs, kCorePlacementAttr))
      return r;
    AttrList attrs = rc->attrs;
    attrs.push_back({kCorePlacementAttr, Attr::Str("aiv")});
    return ctx_.Make<Call>(rc->op, std::string(), rc->args, rc->kwargs, std::move(attrs), rc->type,
                           rc->span);
  }
};

class RegionLowerer : public IRMutator {
 public:
  RegionLowerer(Context& ctx, DiagnosticEngine& diag) : IRMutator(ctx), diag_(diag) {}
  // Names the regions in diagnostics (default: "a pl.split_aiv(2, mode=M) region").
  std::string label;
  int regions = 0;
  bool failed = false;

  const Stmt* Mutate_SplitAivScopeStmt(const SplitAivScopeStmt* s) override {
    ++regions;
    std::string region =
        fmt::format("pl.split_aiv({}, mode={})", s->count, ModeName(static_cast<int>(s->mode)));
    std::string what = !label.empty() ? label : "a " + region + " region";
    if (s->count != 2) {
      diag_.Error(s->span, fmt::format("lower-auto-vector-split: {}: a core has 2 vector lanes; "
                                       "count must be 2",
                                       region));
      failed = true;
      return s;
    }
    const Stmt* inner = MutateStmt(s->body);  // nested regions are not expected; handled anyway
    IRBuilder b(ctx_);
    b.SetSpan(s->span);
    const Var* lane = s->var;
    if (!lane) lane = ctx_.NewVar("aiv_id", ctx_.Scalar(DataType::kIndex), s->span);
    const Stmt* body = nullptr;
    if (s->mode == SplitMode::kNone) {
      body = Stamper(ctx_).MutateStmt(inner);
    } else {
      Halver h(ctx_, s->mode == SplitMode::kUpDown ? 0 : 1, lane, what, diag_);
      body = h.MutateStmt(inner);
      if (h.failed) {
        failed = true;
        return s;
      }
    }
    std::vector<const Stmt*> out;
    out.push_back(ctx_.Make<AssignStmt>(lane, b.Op(ops::kTileGetSubblockIdx, {}), s->span));
    for (const Stmt* x : util::StmtList(body)) out.push_back(x);
    return util::Seq(ctx_, std::move(out), s->span);
  }

 private:
  DiagnosticEngine& diag_;
};

bool HasRegion(const Stmt* body) {
  bool found = false;
  walk::ForEachStmt(body, [&](const Stmt* s) {
    if (Isa<SplitAivScopeStmt>(s)) found = true;
  });
  return found;
}

class LowerAutoVectorSplitPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine& diag) override {
    std::vector<const Function*> out;
    bool changed = false, failed = false;
    for (const Function* f : prog.functions) {
      if (!f->IsKernel() || FindAttr(f->attrs, "split_aiv_region_validated")) {
        out.push_back(f);
        continue;
      }
      const Attr* split = FindAttr(f->attrs, "split");
      bool auto_split = split && split->i != static_cast<int>(SplitMode::kNone);
      bool regions = HasRegion(f->body);
      if (auto_split && regions) {
        diag.Error(f->span, fmt::format("lower-auto-vector-split: kernel '{}' has both a "
                                        "function-level split and pl.split_aiv regions; use one "
                                        "of them",
                                        f->name));
        failed = true;
        continue;
      }
      if (auto_split) {
        const Call* cube = nullptr;
        walk::ForEachCall(f->body, [&](const Call* c, const Stmt*) {
          CoreAffinity a = ClassifyCallAffinity(c);
          if (!cube && (a == CoreAffinity::kCube || a == CoreAffinity::kMixed)) cube = c;
        });
        if (cube) {
          diag.Error(cube->span.IsKnown() ? cube->span : f->span,
                     fmt::format("lower-auto-vector-split: kernel '{}' with split={} mixes cube "
                                 "and vector work ({}); the AUTO vector split of mixed kernels "
                                 "is not supported",
                                 f->name, ModeName(split->i), cube->OpName()));
          failed = true;
          out.push_back(f);
          continue;
        }
        // Pure vector: both lanes run the whole body halved, exactly as if it
        // were written inside one pl.split_aiv(2, mode=split) region.
        const Function* nf = SplitWholeBody(ctx, *f, static_cast<SplitMode>(split->i), diag);
        failed |= nf == nullptr;
        out.push_back(nf ? nf : f);
        changed |= nf != nullptr;
        continue;
      }
      if (!regions) {
        out.push_back(f);
        continue;
      }
      const Function* nf = LowerRegions(ctx, *f, f->body, "", diag);
      failed |= nf == nullptr;
      out.push_back(nf ? nf : f);
      changed |= nf != nullptr;
    }
    if (failed) return nullptr;
    return changed ? util::WithFunctions(ctx, prog, std::move(out)) : &prog;
  }

 private:
  // `f` with `body`'s regions lowered and the split_aiv stamps, or nullptr
  // (reported). `label` names the regions in diagnostics when non-empty.
  static const Function* LowerRegions(Context& ctx, const Function& f, const Stmt* body,
                                      std::string label, DiagnosticEngine& diag) {
    RegionLowerer lw(ctx, diag);
    lw.label = std::move(label);
    const Stmt* lowered = lw.MutateStmt(body);
    if (lw.failed) return nullptr;
    Function* nf = util::CloneFunction(ctx, f);
    nf->body = lowered;
    nf->attrs.push_back({"split_aiv", Attr::Int(2)});
    nf->attrs.push_back({"split_aiv_region_validated", Attr::Bool(true)});
    return nf;
  }

  // A pure-vector kernel with a function-level split: its body (all but a
  // trailing return) becomes one region of that mode, lowered as above.
  static const Function* SplitWholeBody(Context& ctx, const Function& f, SplitMode mode,
                                        DiagnosticEngine& diag) {
    std::vector<const Stmt*> stmts = util::StmtList(f.body);
    const Stmt* ret = nullptr;
    if (!stmts.empty() && Isa<ReturnStmt>(stmts.back())) {
      ret = stmts.back();
      stmts.pop_back();
    }
    const Stmt* region = ctx.Make<SplitAivScopeStmt>(
        nullptr, 2, mode, util::Seq(ctx, std::move(stmts), f.span), AttrList{}, f.span);
    std::vector<const Stmt*> body{region};
    if (ret) body.push_back(ret);
    return LowerRegions(ctx, f, util::Seq(ctx, std::move(body), f.span),
                        fmt::format("kernel '{}' (its split={} halves the whole body)", f.name,
                                    ModeName(static_cast<int>(mode))),
                        diag);
  }
};

}  // namespace

std::unique_ptr<Pass> CreateLowerAutoVectorSplitPass() {
  return std::make_unique<LowerAutoVectorSplitPass>();
}

}  // namespace pypto::passes
