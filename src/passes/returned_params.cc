// Parameter aliases of function results (see returned_params.h).
#include "returned_params.h"

#include "pass_util.h"
#include "pypto/ir/node_walk.h"

namespace pypto::passes {

using namespace ir;

namespace {

// Forward walk of one body: origin of every DistributedTensor Var (and of the
// elements of tuple Vars bound from function calls), and the merged origins of
// the values returned.
class OriginWalk {
 public:
  OriginWalk(ReturnedParams& rp, const Function& f) : rp_(rp) {
    for (size_t i = 0; i < f.params.size(); ++i)
      if (Isa<DistributedTensorType>(f.params[i]->type)) origin_[f.params[i]] = static_cast<int>(i);
    returns_.assign(f.return_types.size() == 1 && Isa<TupleType>(f.return_types[0])
                        ? Cast<TupleType>(f.return_types[0])->types.size()
                        : f.return_types.size(),
                    kUnset);
  }

  std::vector<int> Run(const Stmt* body) {
    Walk(body);
    for (int& r : returns_)
      if (r == kUnset) r = -1;
    return returns_;
  }

 private:
  static constexpr int kUnset = -2;

  int OriginOf(const Expr* e) {
    if (const Var* v = AsVarLike(e)) {
      auto it = origin_.find(v);
      return it == origin_.end() ? -1 : it->second;
    }
    if (auto* g = As<TupleGetItem>(e)) {
      std::vector<int> t = TupleOrigins(g->tuple);
      return g->index >= 0 && static_cast<size_t>(g->index) < t.size() ? t[g->index] : -1;
    }
    auto* c = As<Call>(e);
    if (!c) return -1;
    if (c->op) {
      for (const Expr* a : c->args)
        if (const Var* v = AsVarLike(a); v && Isa<DistributedTensorType>(v->type))
          return OriginOf(v);
      return -1;
    }
    std::vector<int> t = CallOrigins(c);
    return t.size() == 1 ? t[0] : -1;
  }

  // Per result of a function call: the origin of the argument it aliases.
  std::vector<int> CallOrigins(const Call* c) {
    std::vector<int> out;
    const std::vector<int> params = rp_.Of(c->callee);  // a copy: Of may recurse
    for (int p : params)
      out.push_back(p >= 0 && static_cast<size_t>(p) < c->args.size() ? OriginOf(c->args[p]) : -1);
    return out;
  }

  std::vector<int> TupleOrigins(const Expr* e) {
    if (const Var* v = AsVarLike(e)) {
      auto it = tuple_origin_.find(v);
      return it == tuple_origin_.end() ? std::vector<int>{} : it->second;
    }
    if (auto* c = As<Call>(e); c && !c->op) return CallOrigins(c);
    if (auto* m = As<MakeTuple>(e)) {
      std::vector<int> out;
      for (const Expr* x : m->elements) out.push_back(OriginOf(x));
      return out;
    }
    return {};
  }

  void Bind(const Var* v, int o) {
    if (o >= 0 && Isa<DistributedTensorType>(v->type))
      origin_[v] = o;
    else
      origin_.erase(v);  // a re-assigned pre-SSA Var may lose its origin
  }

  void Return(std::vector<int> vals) {
    if (vals.size() != returns_.size()) {
      for (int& r : returns_) r = -1;
      return;
    }
    for (size_t i = 0; i < vals.size(); ++i)
      returns_[i] = returns_[i] == kUnset || returns_[i] == vals[i] ? vals[i] : -1;
  }

  void BindCarried(const std::vector<const IterArg*>& ias, const std::vector<const Var*>& rvs) {
    for (size_t k = 0; k < ias.size(); ++k) {
      int o = OriginOf(ias[k]->init);
      Bind(ias[k], o);
      if (k < rvs.size()) Bind(rvs[k], o);
    }
  }

  void Walk(const Stmt* s) {
    if (!s) return;
    switch (s->kind) {
      case NodeKind::kAssignStmt: {
        auto* a = Cast<AssignStmt>(s);
        if (Isa<TupleType>(a->var->type))
          tuple_origin_[a->var] = TupleOrigins(a->value);
        else
          Bind(a->var, OriginOf(a->value));
        return;
      }
      case NodeKind::kReturnStmt: {
        auto* r = Cast<ReturnStmt>(s);
        if (r->values.size() == 1 && Isa<TupleType>(r->values[0]->type))
          Return(TupleOrigins(r->values[0]));
        else {
          std::vector<int> vals;
          for (const Expr* v : r->values) vals.push_back(OriginOf(v));
          Return(std::move(vals));
        }
        return;
      }
      case NodeKind::kIfStmt: {
        auto* i = Cast<IfStmt>(s);
        Walk(i->then_body);
        Walk(i->else_body);
        const YieldStmt* ty = util::TrailingYield(i->then_body);
        const YieldStmt* ey = util::TrailingYield(i->else_body);
        for (size_t k = 0; k < i->return_vars.size(); ++k) {
          int a = ty && k < ty->values.size() ? OriginOf(ty->values[k]) : -1;
          int b = ey && k < ey->values.size() ? OriginOf(ey->values[k]) : -1;
          Bind(i->return_vars[k], a == b ? a : -1);
        }
        return;
      }
      case NodeKind::kForStmt: {
        auto* f = Cast<ForStmt>(s);
        BindCarried(f->iter_args, f->return_vars);
        Walk(f->body);
        return;
      }
      case NodeKind::kWhileStmt: {
        auto* w = Cast<WhileStmt>(s);
        BindCarried(w->iter_args, w->return_vars);
        Walk(w->body);
        return;
      }
      default:  // sequences and scopes: their statements in order
        ForEachChildStmt(s, [&](const Stmt* c) { Walk(c); });
        return;
    }
  }

  ReturnedParams& rp_;
  std::unordered_map<const Var*, int> origin_;
  std::unordered_map<const Var*, std::vector<int>> tuple_origin_;
  std::vector<int> returns_;
};

}  // namespace

const std::vector<int>& ReturnedParams::Of(const std::string& name) {
  static const std::vector<int> kNone;
  if (auto it = memo_.find(name); it != memo_.end()) return it->second;
  const Function* f = prog_.Find(name);
  if (!f) return kNone;
  // Recursion through a cycle of calls sees "aliases nothing" for the
  // function being analysed.
  memo_[name] = std::vector<int>(f->return_types.size(), -1);
  std::vector<int> r = OriginWalk(*this, *f).Run(f->body);
  return memo_[name] = std::move(r);
}

}  // namespace pypto::passes
