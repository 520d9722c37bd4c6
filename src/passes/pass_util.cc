// Private helpers shared by the passes (see pass_util.h).
#include "pass_util.h"

namespace pypto::passes::util {

using namespace ir;

Function* CloneFunction(Context& ctx, const Function& f) {
  Function* n = ctx.Make<Function>();
  *n = f;
  return n;
}

const Program* WithFunctions(Context& ctx, const Program& p, std::vector<const Function*> fs) {
  Program* n = ctx.Make<Program>();
  n->name = p.name;
  n->dynamic_dims = p.dynamic_dims;
  n->span = p.span;
  n->functions = std::move(fs);
  return n;
}

const Program* RewriteBodies(Context& ctx, const Program& p,
                             const std::function<bool(const Function&)>& pick,
                             const std::function<const Stmt*(const Function&)>& rewrite) {
  std::vector<const Function*> out;
  bool changed = false;
  for (const Function* f : p.functions) {
    const Stmt* body = pick(*f) ? rewrite(*f) : f->body;
    if (body == f->body) {
      out.push_back(f);
      continue;
    }
    Function* nf = CloneFunction(ctx, *f);
    nf->body = body;
    out.push_back(nf);
    changed = true;
  }
  return changed ? WithFunctions(ctx, p, std::move(out)) : &p;
}

std::vector<const Stmt*> StmtList(const Stmt* s) {
  if (!s) return {};
  if (auto* seq = As<SeqStmt>(s)) return seq->stmts;
  return {s};
}

const SeqStmt* Seq(Context& ctx, std::vector<const Stmt*> stmts, Span span) {
  return ctx.Make<SeqStmt>(std::move(stmts), span);
}

namespace {

class UseCollector : public IRVisitor {
 public:
  explicit UseCollector(VarUses* out, bool types) : out_(out) { visit_types_ = types; }
  void Visit_Var(const Var* v) override { Use(v); }
  void Visit_IterArg(const IterArg* v) override { Use(v); }
  void VisitVarDef(const Var* v) override {
    IRVisitor::VisitVarDef(v);
    if (out_->defs[v]++ == 0) {
      out_->def_order.push_back(v);
      out_->first_def[v] = counter_;
    }
    ++counter_;
  }

 private:
  void Use(const Var* v) {
    if (out_->uses[v]++ == 0) {
      out_->use_order.push_back(v);
      out_->first_use[v] = counter_;
    }
    ++counter_;
  }
  VarUses* out_;
  int counter_ = 0;
};

class AccessCollector : public IRVisitor {
 public:
  AccessCollector(const Program* prog, std::unordered_map<const Var*, Access>* out)
      : prog_(prog), out_(out) {}
  void Visit_Var(const Var* v) override { (*out_)[v].read = true; }
  void Visit_IterArg(const IterArg* v) override { (*out_)[v].read = true; }
  void Visit_Call(const Call* c) override {
    const Function* callee = (!c->op && prog_) ? prog_->Find(c->callee) : nullptr;
    for (size_t i = 0; i < c->args.size(); ++i) {
      const Var* v = AsVarLike(c->args[i]);
      if (!v) {
        VisitExpr(c->args[i]);
        continue;
      }
      Access& a = (*out_)[v];
      if (c->op) {
        switch (c->op->EffectOf(static_cast<int>(i), c->kwargs)) {
          case ArgEffect::kRead:
            a.read = true;
            break;
          case ArgEffect::kWrite:
            a.written = true;
            break;
          case ArgEffect::kReadWrite:
            a.read = a.written = true;
            break;
        }
      } else if (callee && i < callee->param_dirs.size()) {
        switch (callee->param_dirs[i]) {
          case ParamDirection::kIn:
            a.read = true;
            break;
          case ParamDirection::kOut:
            a.written = true;
            break;
          case ParamDirection::kInOut:
            a.read = a.written = true;
            break;
        }
      } else {
        a.read = true;
      }
    }
    for (const NamedAttr& a : c->kwargs) VisitAttr(a.value);
    for (const NamedAttr& a : c->attrs) VisitAttr(a.value);
  }

 private:
  const Program* prog_;
  std::unordered_map<const Var*, Access>* out_;
};

}  // namespace

VarUses CollectVarUses(const Stmt* s, bool include_types) {
  VarUses u;
  UseCollector c(&u, include_types);
  c.VisitStmt(s);
  return u;
}

std::unordered_map<const Var*, Access> AnalyzeAccess(const Program* prog, const Stmt* body) {
  std::unordered_map<const Var*, Access> out;
  AccessCollector c(prog, &out);
  c.VisitStmt(body);
  return out;
}

ParamDirection DirectionOf(const Access& a) {
  if (!a.written) return ParamDirection::kIn;
  return a.read ? ParamDirection::kInOut : ParamDirection::kOut;
}

bool HasSideEffects(const Call& c) {
  if (!c.op) return true;
  if (Isa<UnknownType>(c.type)) return true;
  for (const auto& [idx, fn] : c.op->effects)
    if (fn(c.kwargs) != ArgEffect::kRead) return true;
  return false;
}

}  // namespace pypto::passes::util
