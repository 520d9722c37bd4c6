// Run-time argument directions: see pypto/sim/arg_directions.h.
#include "pypto/sim/arg_directions.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "pypto/ir/function.h"
#include "pypto/sim/interpreter.h"

namespace pypto::sim {

namespace {

// True when [lo, hi) lies inside the union of the written ranges.
bool Covered(const DirGuard& g, int64_t lo, int64_t hi) {
  auto it = g.written.upper_bound(lo);
  if (it == g.written.begin()) return false;
  --it;
  return it->second >= hi;  // ranges are merged, so one range must hold all of it
}

void AddWritten(DirGuard& g, int64_t lo, int64_t hi) {
  auto it = g.written.upper_bound(lo);
  if (it != g.written.begin() && std::prev(it)->second >= lo) {
    --it;
    lo = it->first;
    hi = std::max(hi, it->second);
  }
  while (it != g.written.end() && it->first <= hi) {
    hi = std::max(hi, it->second);
    it = g.written.erase(it);
  }
  g.written[lo] = hi;
}

}  // namespace

Value GuardArgument(const ir::Function& f, size_t i, const Value& v, Span call, uint64_t owner) {
  if (v.kind != Value::Kind::kTensor || !v.tensor || v.tensor->IsWindow() ||
      i >= f.param_dirs.size())
    return v;
  ir::ParamDirection d = f.param_dirs[i];
  if (d == ir::ParamDirection::kInOut) return v;
  auto g = std::make_shared<DirGuard>();
  g->function = f.name;
  g->param = f.params[i]->name_hint;
  g->dir = d;
  g->call = call;
  g->owner = owner;
  g->outer = v.tensor->dir;
  auto t = std::make_shared<TensorVal>(*v.tensor);
  t->dir = std::move(g);
  Value r = v;
  r.tensor = std::move(t);
  return r;
}

Value ReleaseGuards(const Value& v, uint64_t owner) {
  if (v.kind == Value::Kind::kTuple) {
    auto items = std::make_shared<std::vector<Value>>(*v.tuple);
    for (Value& e : *items) e = ReleaseGuards(e, owner);
    Value r = v;
    r.tuple = items;
    return r;
  }
  if (v.kind != Value::Kind::kTensor || !v.tensor || !v.tensor->dir ||
      v.tensor->dir->owner != owner)
    return v;
  auto t = std::make_shared<TensorVal>(*v.tensor);
  while (t->dir && t->dir->owner == owner) t->dir = t->dir->outer;
  Value r = v;
  r.tensor = std::move(t);
  return r;
}

const DirGuard* JudgeAccess(const TensorVal& v, int64_t lo, int64_t hi, bool write) {
  for (DirGuard* g = v.dir.get(); g; g = g->outer.get()) {
    if (write && g->dir == ir::ParamDirection::kIn) return g;
    if (!write && g->dir == ir::ParamDirection::kOut) {
      std::lock_guard<std::mutex> l(g->mu);
      if (!Covered(*g, lo, hi)) return g;
    }
  }
  if (write)
    for (DirGuard* g = v.dir.get(); g; g = g->outer.get())
      if (g->dir == ir::ParamDirection::kOut) {
        std::lock_guard<std::mutex> l(g->mu);
        AddWritten(*g, lo, hi);
      }
  return nullptr;
}

void FailDirection(const Exec& ex, const DirGuard& g, const TensorVal& v, bool write,
                   const char* role, const std::vector<int64_t>& off,
                   const std::vector<int64_t>& ext) {
  std::string view = v.name.empty() || v.name == role ? "" : fmt::format(" ('{}')", v.name);
  std::string what = fmt::format("'{}'{} region offsets {} extents {}", role, view,
                                 ShapeString(off), ShapeString(ext));
  std::string arg = fmt::format("argument '{}' of '{}' (called at {})", g.param, g.function,
                                ex.in.FormatSpan(g.call));
  if (write)
    ex.Fail(fmt::format(
        "writes {}, which is {} declared pl.In: an input the call must not modify (its "
        "caller's later readers are not ordered after this write); declare the parameter "
        "pl.InOut if the call updates it",
        what, arg));
  ex.Fail(fmt::format(
      "reads {}, which is {} declared pl.Out, where the call has not written it yet: an Out "
      "argument's contents on entry are undefined (no read-after-write edge orders its earlier "
      "writer before this call); write the region first, or declare the parameter pl.InOut",
      what, arg));
}

}  // namespace pypto::sim
