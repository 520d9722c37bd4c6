// Live intervals and first-fit address assignment for kernel tile buffers, and
// the bump-or-reuse policy the PTO emitter's AllocTile follows. See
// include/pypto/codegen/ub_allocator.h for the rules.
#include "pypto/codegen/ub_allocator.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <queue>
#include <set>
#include <unordered_map>

#include "pypto/core/dtype.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/node_walk.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/visitor.h"
#include "pypto/ops/ops.h"

namespace pypto::codegen {

using namespace pypto::ir;

int64_t TilePhysicalCols(int64_t cols, DataType dt, const TileView& view) {
  if (view.blayout != TileLayout::kRowMajor || view.slayout != TileLayout::kNoneBox) return cols;
  int64_t bytes = DTypeBytes(dt);
  if (bytes <= 0 || 32 % bytes != 0) return cols;
  int64_t block = 32 / bytes;
  return (cols + block - 1) / block * block;
}

int64_t TileUbBytes(const TileType* tt) {
  if (tt->shape.empty()) return DTypeBytes(tt->dtype);
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < tt->shape.size(); ++i) {
    auto v = StaticInt(tt->shape[i]);
    if (!v) return -1;
    rows *= *v;
  }
  auto cols = StaticInt(tt->shape.back());
  if (!cols) return -1;
  return rows * TilePhysicalCols(*cols, tt->dtype, tt->view.value_or(TileView{})) *
         DTypeBytes(tt->dtype);
}

int64_t OnChipCapacity(std::string_view arch, MemorySpace m) {
  bool a5 = arch == "a5";
  switch (m) {
    case MemorySpace::kVec:
      return (a5 ? 256 : 192) * 1024;
    case MemorySpace::kMat:
      return 512 * 1024;
    case MemorySpace::kLeft:
    case MemorySpace::kRight:
      return 64 * 1024;
    case MemorySpace::kAcc:
      return (a5 ? 256 : 128) * 1024;
    case MemorySpace::kBias:
      return 1024;
    default:
      return 0;
  }
}

TileView CubeSpaceView(MemorySpace m, TileView v) {
  if (v.blayout != TileLayout::kRowMajor || v.slayout != TileLayout::kNoneBox) return v;
  switch (m) {
    case MemorySpace::kMat:
      v.blayout = TileLayout::kColMajor;
      v.slayout = TileLayout::kRowMajor;
      break;
    case MemorySpace::kLeft:
      v.slayout = TileLayout::kRowMajor;
      break;
    case MemorySpace::kRight:
      v.slayout = TileLayout::kColMajor;
      break;
    case MemorySpace::kAcc:
      v.blayout = TileLayout::kColMajor;
      v.slayout = TileLayout::kRowMajor;
      v.fractal = 1024;
      break;
    default:
      break;
  }
  return v;
}

namespace {

std::string SpaceName(MemorySpace m) {
  switch (m) {
    case MemorySpace::kMat:
      return "L1 (pl.Mem.Mat)";
    case MemorySpace::kLeft:
      return "L0A (pl.Mem.Left)";
    case MemorySpace::kRight:
      return "L0B (pl.Mem.Right)";
    case MemorySpace::kAcc:
      return "L0C (pl.Mem.Acc)";
    case MemorySpace::kBias:
      return "the bias table (pl.Mem.Bias)";
    default:
      return "UB";
  }
}

int64_t RoundUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

// Calls whose tile result is the (updated or reinterpreted) tile argument 0,
// not a new buffer.
bool AliasesFirstArg(const Call* c) {
  return c->Is(ops::kTileSetValidshape) || c->Is(ops::kTileFillpadInplace) ||
         c->Is(ops::kTileWrite) || c->Is(ops::kTileReshape);
}

class UseCollector : public IRVisitor {
 public:
  std::vector<const Var*> vars;
  void Visit_Var(const Var* v) override { vars.push_back(v); }
  void Visit_IterArg(const IterArg* v) override { vars.push_back(v); }
};

bool ElementWise(const Call* c) {
  return c->op &&
         (c->op->family == OpFamily::kElementwise || c->op->family == OpFamily::kElementwiseScalar);
}

class IntervalBuilder {
 public:
  explicit IntervalBuilder(UbPlan* plan) : plan_(plan) {}

  void Run(const Function& fn, const std::set<const Var*>& coalesce) {
    for (const Var* p : fn.params) Def(p, 0);
    Walk(fn.body);
    Finish();
    for (const LoopGroup& g : groups_)
      if (coalesce.count(g.iter_arg)) Coalesce(g);
  }

 private:
  struct Use {
    int node;
    int pos;
    int loop;   // extends to the end of this loop (index into loops_), or -1
    bool copy;  // a yield into a value of the same class (not a read of the buffer)
  };
  struct Loop {
    int start = 0;
    int end = 0;
  };
  // One loop-carried tile: its iter_arg, the loop (index into loops_) and its
  // head and end points.
  struct LoopGroup {
    const Var* iter_arg;
    int loop;
    int head;
    int end;
  };

  static bool IsTile(const Var* v) { return v && Isa<TileType>(v->type); }

  int Node(const Var* v) {
    auto it = node_.find(v);
    if (it != node_.end()) return it->second;
    int n = static_cast<int>(parent_.size());
    node_.emplace(v, n);
    parent_.push_back(n);
    def_.push_back(-1);  // used before any definition we saw: live from the start
    return n;
  }
  int FindRoot(int n) {
    while (parent_[n] != n) n = parent_[n] = parent_[parent_[n]];
    return n;
  }
  void Union(const Var* a, const Var* b) {
    if (!IsTile(a) || !IsTile(b)) return;
    int x = FindRoot(Node(a)), y = FindRoot(Node(b));
    if (x != y) parent_[std::max(x, y)] = std::min(x, y);
  }
  void Union(const Var* a, const Expr* e) { Union(a, AsVarLike(e)); }

  void Def(const Var* v, int pos) {
    if (!IsTile(v)) return;
    int n = Node(v);
    if (def_[n] < 0) def_[n] = pos;
  }

  void UseVar(const Var* v, int pos, bool copy = false) {
    if (!IsTile(v)) return;
    int n = Node(v);
    int d = def_[n];
    // Used before any definition (not SSA, e.g. a value read at the top of a loop
    // body and written further down): live over the whole function.
    if (d < 0) whole_.push_back(n);
    int loop = -1;
    // The outermost open loop entered after the definition: the value must
    // survive every iteration of it.
    for (int l : open_)
      if (loops_[l].start > d) {
        loop = l;
        break;
      }
    uses_.push_back({n, pos, loop, copy});
  }
  void UseExpr(const Expr* e, int pos) {
    if (!e) return;
    UseCollector c;
    c.VisitExpr(e);
    for (const Var* v : c.vars) UseVar(v, pos);
  }

  void Walk(const Stmt* s) {
    if (!s) return;
    switch (s->kind) {
      case NodeKind::kAssignStmt: {
        const auto* a = static_cast<const AssignStmt*>(s);
        int pos = ++pos_;
        UseExpr(a->value, pos);
        Def(a->var, pos);
        if (const auto* call = As<Call>(a->value)) {
          DefCall(call, a->var, pos);
        } else if (AsVarLike(a->value)) {
          Union(a->var, a->value);
        }
        return;
      }
      case NodeKind::kEvalStmt: {
        const auto* e = static_cast<const EvalStmt*>(s);
        int pos = ++pos_;
        UseExpr(e->expr, pos);
        if (const auto* call = As<Call>(e->expr)) DefCall(call, nullptr, pos);
        return;
      }
      case NodeKind::kYieldStmt: {
        const auto* y = static_cast<const YieldStmt*>(s);
        int pos = ++pos_;
        const auto* t = targets_.empty() ? nullptr : &targets_.back();
        for (size_t i = 0; i < y->values.size(); ++i) {
          const Var* v = AsVarLike(y->values[i]);
          if (v && t && i < t->size() && !(*t)[i].empty()) {
            UseVar(v, pos, /*copy=*/true);
            for (const Var* target : (*t)[i]) Union(target, v);
          } else {
            UseExpr(y->values[i], pos);
          }
        }
        return;
      }
      case NodeKind::kReturnStmt: {
        int pos = ++pos_;
        for (const Expr* v : static_cast<const ReturnStmt*>(s)->values) UseExpr(v, pos);
        return;
      }
      case NodeKind::kForStmt: {
        const auto* f = static_cast<const ForStmt*>(s);
        int head = ++pos_;
        UseExpr(f->start, head);
        UseExpr(f->stop, head);
        UseExpr(f->step, head);
        WalkLoop(f->iter_args, f->return_vars, head, nullptr, f->body);
        return;
      }
      case NodeKind::kWhileStmt: {
        const auto* w = static_cast<const WhileStmt*>(s);
        WalkLoop(w->iter_args, w->return_vars, ++pos_, w->cond, w->body);
        return;
      }
      case NodeKind::kIfStmt: {
        const auto* i = static_cast<const IfStmt*>(s);
        UseExpr(i->cond, ++pos_);
        std::vector<std::vector<const Var*>> t;
        for (const Var* rv : i->return_vars) t.push_back({rv});
        targets_.push_back(std::move(t));
        Walk(i->then_body);
        Walk(i->else_body);
        targets_.pop_back();
        int join = ++pos_;
        for (const Var* rv : i->return_vars) Def(rv, join);
        return;
      }
      default:
        // Sequences; scopes (rejected by the emitter, walked for completeness);
        // break/continue (no children).
        ForEachChildStmt(s, [&](const Stmt* c) { Walk(c); });
        return;
    }
  }

  // Shared by for and while: inits are used and iter_args defined at `head`,
  // before the loop; the condition (while) and body are inside it.
  void WalkLoop(const std::vector<const IterArg*>& iter_args, const std::vector<const Var*>& rvs,
                int head, const Expr* cond, const Stmt* body) {
    std::vector<std::vector<const Var*>> t;
    for (size_t i = 0; i < iter_args.size(); ++i) {
      const IterArg* ia = iter_args[i];
      UseExpr(ia->init, head);
      Def(ia, head);
      Union(ia, ia->init);
      std::vector<const Var*> group = {ia};
      if (i < rvs.size()) {
        Union(rvs[i], static_cast<const Var*>(ia));
        group.push_back(rvs[i]);
      }
      t.push_back(std::move(group));
    }
    size_t first_group = groups_.size();
    int l = static_cast<int>(loops_.size());
    for (const IterArg* ia : iter_args)
      if (IsTile(ia)) groups_.push_back({ia, l, head, 0});
    loops_.push_back({++pos_, 0});
    open_.push_back(l);
    UseExpr(cond, ++pos_);
    targets_.push_back(std::move(t));
    Walk(body);
    targets_.pop_back();
    loops_[l].end = ++pos_;
    for (size_t g = first_group; g < groups_.size(); ++g)
      if (groups_[g].loop == l) groups_[g].end = loops_[l].end;
    open_.pop_back();
    int exit = ++pos_;
    for (const Var* rv : rvs) Def(rv, exit);
  }

  // A call at `pos`: a new buffer unless its tile result aliases an operand.
  void DefCall(const Call* c, const Var* result, int pos) {
    const auto* tt = As<TileType>(c->type);
    if (!tt) return;
    bool alias = AliasesFirstArg(c);
    if (alias && result && !c->args.empty()) Union(result, c->args[0]);
    if (c->op) {
      for (size_t i = 0; i < c->args.size(); ++i) {
        if (!Isa<TileType>(c->args[i]->type)) continue;
        if (c->op->EffectOf(static_cast<int>(i), c->kwargs) == ArgEffect::kRead) continue;
        alias = true;
        if (result) Union(result, c->args[i]);
      }
    }
    if (alias) return;
    int64_t bytes = TileUbBytes(tt);
    if (bytes < 0) return;  // dynamic physical shape: the emitter rejects it
    auto key = std::make_pair(result, c);
    if (plan_->index.count(key)) return;  // same (var, call) twice: one buffer
    UbTile t;
    t.var = result;
    t.call = c;
    t.space = tt->memory_space.value_or(MemorySpace::kVec);
    t.bytes = RoundUp(bytes, t.align);
    t.def = t.start = t.end = pos;
    t.span = c->span;
    t.name = result ? result->name_hint : "";
    plan_->index.emplace(key, static_cast<int>(plan_->tiles.size()));
    plan_->tiles.push_back(std::move(t));
    tile_node_.push_back(result && IsTile(result) ? Node(result) : -1);
  }

  void Finish() {
    size_t n = parent_.size();
    std::vector<int> end(def_.begin(), def_.end());
    for (const Use& u : uses_) {
      int e = u.loop >= 0 ? loops_[u.loop].end : u.pos;
      end[u.node] = std::max(end[u.node], e);
    }
    // Class hull: [earliest definition, latest use] over all members.
    std::vector<int> lo(n, std::numeric_limits<int>::max()), hi(n, -1);
    for (size_t i = 0; i < n; ++i) {
      int r = FindRoot(static_cast<int>(i));
      lo[r] = std::min(lo[r], std::max(def_[i], 0));
      hi[r] = std::max(hi[r], end[i]);
    }
    for (int w : whole_) {
      int r = FindRoot(w);
      lo[r] = 0;
      hi[r] = pos_ + 1;
    }
    for (size_t k = 0; k < plan_->tiles.size(); ++k) {
      UbTile& t = plan_->tiles[k];
      if (tile_node_[k] < 0) continue;  // discarded result: live at its definition only
      int r = FindRoot(tile_node_[k]);
      t.start = std::min(t.start, lo[r]);
      t.end = std::max(t.end, hi[r]);
    }
    plan_->points = pos_ + 1;
  }

  // Gives the loop group of `g` one buffer when that is safe (ub_allocator.h).
  void Coalesce(const LoopGroup& g) {
    int root = FindRoot(Node(g.iter_arg));
    for (int w : whole_)
      if (FindRoot(w) == root) return;
    std::vector<int> bufs;
    for (size_t k = 0; k < plan_->tiles.size(); ++k)
      if (tile_node_[k] >= 0 && FindRoot(tile_node_[k]) == root)
        bufs.push_back(static_cast<int>(k));
    if (bufs.size() == 1) plan_->one_buffer.insert(g.iter_arg);
    if (bufs.size() != 2) return;
    UbTile& init = plan_->tiles[bufs[0]];
    UbTile& body = plan_->tiles[bufs[1]];
    if (init.def >= g.head || body.def <= g.head || body.def >= g.end) return;
    if (init.space != body.space || init.bytes != body.bytes || init.same_as >= 0) return;
    // Every value naming the init buffer (defined before the body's buffer is
    // written) is not used once it is written, read by that very op only in place.
    // Yielding the iter_arg (or an alias) back into the group is no read: one
    // buffer makes that a no-op. A value from before the loop yielded into it is:
    // a later iteration would see what the body wrote.
    int w = body.def;
    for (const Use& u : uses_) {
      if (FindRoot(u.node) != root || def_[u.node] >= w) continue;
      bool before_loop = def_[u.node] < g.head;
      if (u.copy && !before_loop) continue;
      // A use inside the group's own loop of the iter_arg is per iteration.
      int last = u.loop >= 0 && (before_loop || u.loop != g.loop) ? loops_[u.loop].end : u.pos;
      if (last > w || (last == w && !ElementWise(body.call))) return;
    }
    body.same_as = bufs[0];
    plan_->one_buffer.insert(g.iter_arg);
  }

  UbPlan* plan_;
  int pos_ = 0;
  std::unordered_map<const Var*, int> node_;
  std::vector<int> parent_, def_;
  std::vector<int> whole_;  // nodes used before their definition
  std::vector<Use> uses_;
  std::vector<Loop> loops_;
  std::vector<int> open_;
  std::vector<std::vector<std::vector<const Var*>>> targets_;  // per open region
  std::vector<int> tile_node_;  // per plan tile: its var's node, or -1
  std::vector<LoopGroup> groups_;
};

}  // namespace

// First-fit in (start, program order) order over the tiles of one space.
void LayOutSpace(UbPlan& plan, MemorySpace m, int64_t capacity) {
  int space = static_cast<int>(m);
  UbPool& pool = plan.pools[space];
  std::vector<int> order;
  for (size_t i = 0; i < plan.tiles.size(); ++i)
    if (static_cast<int>(plan.tiles[i].space) == space && plan.tiles[i].same_as < 0)
      order.push_back(static_cast<int>(i));
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return plan.tiles[a].start < plan.tiles[b].start; });
  // Placed tiles whose interval may still overlap, by address; expired by end.
  std::set<std::pair<int64_t, int>> by_addr;
  std::priority_queue<std::pair<int, int>, std::vector<std::pair<int, int>>, std::greater<>> ends;
  int64_t live = 0;
  for (int k : order) {
    UbTile& t = plan.tiles[k];
    while (!ends.empty() && ends.top().first < t.start) {
      int a = ends.top().second;
      ends.pop();
      by_addr.erase({plan.tiles[a].addr, a});
      live -= plan.tiles[a].bytes;
    }
    int64_t cand = 0;
    for (const auto& [addr, a] : by_addr) {
      if (cand + t.bytes <= addr) break;
      cand = std::max(cand, RoundUp(addr + plan.tiles[a].bytes, t.align));
    }
    t.addr = cand;
    live += t.bytes;
    pool.reuse_bytes = std::max(pool.reuse_bytes, cand + t.bytes);
    if (capacity > 0 && pool.overflow_tile < 0 && cand + t.bytes > capacity) pool.overflow_tile = k;
    if (live > pool.peak_bytes) {
      pool.peak_bytes = live;
      pool.peak_tile = k;
    }
    by_addr.insert({cand, k});
    ends.push({t.end, k});
  }
  // The tiles live when the peak tile was placed: placed before it (earlier in
  // `order`) and not yet expired at its start, plus itself.
  pool.peak_live.clear();
  if (pool.peak_tile >= 0) {
    int at = plan.tiles[pool.peak_tile].start;
    for (int k : order) {
      if (plan.tiles[k].end >= at) pool.peak_live.push_back(k);
      if (k == pool.peak_tile) break;
    }
    std::sort(pool.peak_live.begin(), pool.peak_live.end());
  }
  for (UbTile& t : plan.tiles)
    if (t.same_as >= 0 && static_cast<int>(t.space) == space) t.addr = plan.tiles[t.same_as].addr;
}

namespace {
std::string OpName(const Call* c) { return c->op ? c->op->name : c->callee; }
}  // namespace

int UbPlan::Find(const Var* var, const Call* call) const {
  auto it = index.find({var, call});
  return it == index.end() ? -1 : it->second;
}

UbPlan AnalyzeTileIntervals(const Function& fn, const std::set<const Var*>& coalesce) {
  UbPlan plan;
  IntervalBuilder(&plan).Run(fn, coalesce);
  for (const UbTile& t : plan.tiles)
    if (t.same_as < 0) plan.pools[static_cast<int>(t.space)].bump_bytes += t.bytes;
  return plan;
}

UbPlan PlanTileMemory(const Function& fn, int64_t vec_capacity) {
  UbPlan plan = AnalyzeTileIntervals(fn);
  std::vector<int> spaces;
  for (const auto& [s, pool] : plan.pools) spaces.push_back(s);
  for (int s : spaces) {
    auto m = static_cast<MemorySpace>(s);
    LayOutSpace(plan, m, m == MemorySpace::kVec ? vec_capacity : 0);
  }
  return plan;
}

UbAllocator::UbAllocator(const Function& fn, int64_t vec_capacity, std::string arch,
                         const std::set<const Var*>& coalesce)
    : plan_(AnalyzeTileIntervals(fn, coalesce)), cap_(vec_capacity), arch_(std::move(arch)) {
  auto it = plan_.pools.find(static_cast<int>(MemorySpace::kVec));
  // The first-fit layout is only computed when the bump layout does not fit.
  if (it != plan_.pools.end() && it->second.bump_bytes > cap_) {
    LayOutSpace(plan_, MemorySpace::kVec, cap_);
    mode_ = it->second.reuse_bytes <= cap_ ? Mode::kReuse : Mode::kOverflow;
    // Tiles the analysis did not foresee go above the reuse layout.
    if (mode_ == Mode::kReuse) next_[static_cast<int>(MemorySpace::kVec)] = it->second.reuse_bytes;
  }
}

UbPlacement UbAllocator::Overflow() const {
  const UbPool& p = plan_.pools.at(static_cast<int>(MemorySpace::kVec));
  UbPlacement r;
  r.ok = false;
  constexpr std::string_view kHelp =
      "use smaller tiles (smaller chunk_rows / chunk_cols) or keep fewer tiles live at the same "
      "time";
  if (p.peak_bytes > cap_) {
    const UbTile& at = plan_.tiles[p.peak_tile];
    std::vector<std::string> names;
    for (int k : p.peak_live) {
      if (names.size() == 8) {
        names.push_back("...");
        break;
      }
      const UbTile& t = plan_.tiles[k];
      names.push_back(fmt::format("{} ({} B)", t.name.empty() ? "<discarded>" : t.name, t.bytes));
    }
    r.error_span = at.span;
    r.error = fmt::format(
        "{}: kernel tiles need {} bytes of UB at once here ({} tiles live: {}) but the {} target "
        "has {}; {}",
        OpName(at.call), p.peak_bytes, p.peak_live.size(), fmt::join(names, ", "), arch_, cap_,
        kHelp);
  } else {
    // Fits in principle, but first-fit fragmentation pushes a tile past the end.
    const UbTile& at = plan_.tiles[p.overflow_tile];
    r.error_span = at.span;
    r.error = fmt::format(
        "{}: kernel tiles need at most {} bytes of UB at once, but their first-fit placement "
        "needs {} bytes and the {} target has {}; {}",
        OpName(at.call), p.peak_bytes, p.reuse_bytes, arch_, cap_, kHelp);
  }
  return r;
}

UbPlacement UbAllocator::Place(const Var* var, const Call* call, MemorySpace space, int64_t bytes) {
  bool vec = space == MemorySpace::kVec;
  if (vec && mode_ == Mode::kOverflow) return Overflow();
  int k = plan_.Find(var, call);
  if (vec && mode_ == Mode::kReuse && k >= 0) return {true, plan_.tiles[k].addr, {}, {}};
  // Bump layout: a coalesced buffer takes the address its group's init got.
  if (k >= 0 && plan_.tiles[k].same_as >= 0) {
    auto shared = bumped_.find(plan_.tiles[k].same_as);
    if (shared != bumped_.end()) return {true, shared->second, {}, {}};
  }
  UbPlacement r;
  int64_t& next = next_[static_cast<int>(space)];
  r.addr = next;
  if (k >= 0) bumped_[k] = r.addr;
  next += RoundUp(bytes, kTileAlign);
  int64_t cap = vec ? cap_ : OnChipCapacity(arch_, space);
  if (cap > 0 && next > cap) {
    r.ok = false;
    r.error_span = call->span;
    r.error = fmt::format("{}: kernel tiles need {} bytes of {} but the {} target has {}",
                          OpName(call), next, SpaceName(space), arch_, cap);
  }
  return r;
}

}  // namespace pypto::codegen
