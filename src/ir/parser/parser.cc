// ParseProgram entry point and the module/function level of lowering:
// imports, module constants, dynamic dims, the @pl.program class or top-level
// @pl.jit* / @pl.function functions, decorators and signatures. All signatures
// are lowered before any body so calls can reference functions defined later;
// a function without a return annotation has its body lowered on demand when a
// caller needs its return type. Each body is parsed once, right before it is
// lowered (ParseOutlined); a file with any lexer or syntax error goes down the
// full path instead, which reports exactly its syntax errors.
#include "pypto/ir/parser.h"

#include <fmt/format.h>

#include <unordered_set>

#include "lower.h"
#include "text_names.h"

namespace pypto::ir {

namespace parser {

namespace {

bool IsDocstring(const PyStmt* s) {
  return s->kind == SK::kExpr && s->value && s->value->kind == EK::kString;
}

bool IsProgramDecorator(const PyExpr* d) {
  std::string n = DottedName(d->kind == EK::kCall ? d->a : d);
  return n == "pl.program";
}

}  // namespace

const Program* Lowerer::Run(const std::vector<PyStmt*>& module, const std::string& default_name,
                            AstPool& pool) {
  int errors_before = diag_.ErrorCount();
  // Constants handed over by the Python decorators come first, as if written
  // at the top of the file.
  for (const auto& [name, value] : opts_.constants) {
    int32_t f = ctx_.sources().AddFile("<constant " + name + ">", value);
    TokenStream toks(ctx_.sources().FileText(f), f, 0, diag_);
    PyExpr* e = ParseSingleExpr(toks, pool, diag_);
    if (!e) continue;
    if (auto v = EvalConst(e, true)) consts_[name] = *v;
  }
  std::string name = default_name;
  bool have_class = false;
  for (const PyStmt* s : module) {
    if (s->kind == SK::kClass) {
      bool is_program = false;
      for (const PyExpr* d : s->decorators) is_program |= IsProgramDecorator(d);
      if (!is_program) continue;
      if (have_class) {
        Error(s->name_span, fmt::format("only one @pl.program class is allowed per file; '{}' "
                                        "is a second one",
                                        s->name));
        continue;
      }
      have_class = true;
      name = s->name;
      for (const PyStmt* m : s->body) {
        if (m->kind == SK::kDef) {
          AddFunction(m, true);
        } else if (!IsDocstring(m) && m->kind != SK::kPass) {
          Error(m->span, "only @pl.function methods may appear in a @pl.program class");
        }
      }
    } else if (s->kind == SK::kDef) {
      // Only pl.* decorators make a program function; others are harness code.
      bool dsl = false;
      for (const PyExpr* d : s->decorators)
        dsl |= DottedName(d->kind == EK::kCall ? d->a : d).rfind("pl.", 0) == 0;
      if (dsl) AddFunction(s, false);
    } else if (s->kind == SK::kAssign && s->target && s->target->kind == EK::kName) {
      const PyExpr* v = s->value;
      const std::string& n = s->target->str;
      if (v->kind == EK::kCall && DottedNameIs(v->a, "pl.dynamic")) {
        if (v->items.size() != 1 || v->items[0]->kind != EK::kString || !v->kwargs.empty()) {
          Error(v->span, "pl.dynamic: expected one string argument, e.g. N = pl.dynamic(\"N\")");
          continue;
        }
        const Var* d = ctx_.NewVar(n, ctx_.Scalar(DataType::kIndex), s->target->span);
        dyn_dims_.push_back(d);
        consts_.erase(n);
        continue;
      }
      if (auto c = EvalConst(v, false)) {
        consts_[n] = *c;
        non_const_globals_.erase(n);
      } else {
        non_const_globals_[n] = s->span;
        consts_.erase(n);
      }
    }
    // Imports, docstrings and other module-level code (test harnesses in
    // upstream-style files) are not part of the program.
  }
  if (funcs_.empty()) {
    Span sp{file_, 1 + opts_.line_offset, 1, 1};
    Error(sp,
          "no functions found; expected a @pl.program class with @pl.function methods or "
          "top-level @pl.jit / @pl.function functions");
    return nullptr;
  }
  for (size_t i = 0; i < funcs_.size(); ++i) LowerSignature(i);
  for (size_t i = 0; i < funcs_.size(); ++i)
    if (!funcs_[i].lowered && !funcs_[i].lowering) LowerBody(i);
  if (diag_.ErrorCount() > errors_before) return nullptr;
  auto* p = ctx_.Make<Program>();
  p->name = name;
  p->dynamic_dims = dyn_dims_;
  for (const FuncEntry& f : funcs_) p->functions.push_back(f.fn);
  return p;
}

void Lowerer::AddFunction(const PyStmt* def, bool in_class) {
  auto* f = ctx_.Make<Function>();
  f->name = def->name;
  f->span = def->name_span;
  bool ok = true;
  if (def->decorators.empty()) {
    Error(def->name_span, fmt::format("method '{}' needs a @pl.function decorator", def->name));
    ok = false;
  }
  for (const PyExpr* d : def->decorators) ok &= ApplyDecorator(d, f);
  // Each decorator sets the function's kinds and attributes: a second one would
  // silently override (or repeat) what the first one says.
  if (def->decorators.size() > 1)
    Error(def->decorators[1]->span,
          fmt::format("function '{}' has {} decorators; a function takes exactly one "
                      "(@pl.function(...), @pl.jit, @pl.jit.incore or @pl.jit.host): merge their "
                      "keyword arguments",
                      def->name, def->decorators.size()));
  if (func_index_.count(def->name)) {
    Error(def->name_span, fmt::format("function '{}' is defined twice", def->name));
    return;
  }
  // A HOST SubWorker is host Python (upstream writes it without `self`).
  if (in_class && !f->IsHostSubWorker() && (def->params.empty() || def->params[0].name != "self")) {
    Error(def->name_span,
          fmt::format("method '{}' must take 'self' as its first parameter", def->name));
  }
  (void)ok;
  FuncEntry e;
  e.fn = f;
  e.def = def;
  e.returns_declared = def->returns != nullptr;
  func_index_[def->name] = funcs_.size();
  funcs_.push_back(e);
}

bool Lowerer::ApplyDecorator(const PyExpr* d, Function* f) {
  const PyExpr* head = d->kind == EK::kCall ? d->a : d;
  std::string n = DottedName(head);
  if (n == "pl.jit.incore") {
    f->func_type = FunctionType::kInCore;
  } else if (n == "pl.jit") {
    f->func_type = FunctionType::kOrchestration;
  } else if (n == "pl.jit.host") {
    f->func_type = FunctionType::kOpaque;
    f->level = Level::kHost;
    f->role = Role::kOrchestrator;
  } else if (n != "pl.function") {
    Error(d->span, fmt::format("unknown decorator '@{}'; expected @pl.function, @pl.jit, "
                               "@pl.jit.incore or @pl.jit.host",
                               n.empty() ? "<expression>" : n));
    return false;
  }
  if (d->kind != EK::kCall) return true;
  bool ok = true;
  if (!d->items.empty()) {
    Error(d->items[0]->span, fmt::format("@{}: takes keyword arguments only (type=, level=, "
                                         "role=, ...)",
                                         n));
    ok = false;
  }
  for (const Keyword& kw : d->kwargs) {
    auto expect_enum = [&](EnumKind k, const char* what) -> std::optional<int> {
      auto ev = EnumOf(kw.value);
      if (!ev || ev->first != k) {
        Error(kw.value->span, fmt::format("@{}: '{}' must be a {} value such as {}", n, kw.name,
                                          GetEnumDesc(k).prefix, what));
        ok = false;
        return std::nullopt;
      }
      return ev->second;
    };
    if (kw.name == "type") {
      if (auto v = expect_enum(EnumKind::kFunctionType, "pl.FunctionType.InCore"))
        f->func_type = static_cast<FunctionType>(*v);
    } else if (kw.name == "level") {
      if (auto v = expect_enum(EnumKind::kLevel, "pl.Level.HOST"))
        f->level = static_cast<Level>(*v);
    } else if (kw.name == "role") {
      if (auto v = expect_enum(EnumKind::kRole, "pl.Role.Orchestrator"))
        f->role = static_cast<Role>(*v);
    } else if (auto a = LowerAttr(kw.value, nullptr)) {
      f->attrs.push_back({kw.name, *a});
    } else {
      ok = false;
    }
  }
  return ok;
}

void Lowerer::LowerSignature(size_t idx) {
  FuncEntry& fe = funcs_[idx];
  Function* f = fe.fn;
  const PyStmt* def = fe.def;
  scope_.clear();
  poisoned_.clear();
  cur_fn_ = f;
  std::unordered_set<std::string> seen;
  for (size_t i = 0; i < def->params.size(); ++i) {
    const PyParam& p = def->params[i];
    if (i == 0 && p.name == "self") continue;
    if (!seen.insert(p.name).second) {
      Error(p.span, fmt::format("duplicate parameter '{}' in function '{}'", p.name, f->name));
      continue;
    }
    if (text::IsReservedName(p.name)) {
      Error(p.span, fmt::format("'{}' cannot be used as a parameter name", p.name));
      continue;
    }
    if (p.default_value) {
      Error(
          p.default_value->span,
          fmt::format("parameter '{}': default values are not supported in IR functions", p.name));
    }
    ParamDirection dir = ParamDirection::kIn;
    const Type* t = nullptr;
    if (!p.annotation) {
      Error(p.span, fmt::format("parameter '{}' of '{}' needs a type annotation, e.g. "
                                "'{}: pl.Tensor[[16, 64], pl.FP32]'",
                                p.name, f->name, p.name));
    } else {
      t = LowerParamType(p.annotation, &dir);
    }
    const Var* v = ctx_.NewVar(p.name, t ? t : ctx_.Unknown(), p.span);
    if (!t) {
      poisoned_.insert(v);
      fe.bad_params.push_back(v);
    }
    Bind(p.name, v);
    f->params.push_back(v);
    f->param_dirs.push_back(dir);
  }
  if (def->returns) {
    const PyExpr* r = def->returns;
    if (r->kind == EK::kNone) {
      // no results
    } else if (r->kind == EK::kSubscript && r->a->kind == EK::kName &&
               (r->a->str == "tuple" || r->a->str == "Tuple")) {
      const PyExpr* idx = r->b;
      std::vector<const PyExpr*> elems;
      if (idx && idx->kind == EK::kTuple)
        elems.assign(idx->items.begin(), idx->items.end());
      else if (idx)
        elems.push_back(idx);
      for (const PyExpr* e : elems)
        if (const Type* t = LowerType(e)) f->return_types.push_back(t);
    } else if (const Type* t = LowerType(r)) {
      f->return_types.push_back(t);
    }
  }
  fe.sig_done = true;
}

void Lowerer::LowerBody(size_t idx) {
  FuncEntry& fe = funcs_[idx];
  // Save the caller's state: bodies may be lowered on demand from a call site.
  auto saved_scope = std::move(scope_);
  auto saved_poison = std::move(poisoned_);
  Function* saved_fn = cur_fn_;
  auto saved_inferred = std::move(inferred_returns_);
  bool saved_saw = saw_return_;
  YieldTargets* saved_yield = yield_ctx_;
  int saved_loops = loop_depth_;
  int saved_blocks = block_depth_;
  const std::string* saved_alloc = alloc_name_;
  auto saved_tasks = std::move(task_ids_);
  task_ids_.clear();
  scope_.clear();
  poisoned_.clear();
  inferred_returns_.clear();
  saw_return_ = false;
  yield_ctx_ = nullptr;
  loop_depth_ = 0;
  block_depth_ = 0;
  alloc_name_ = nullptr;
  cur_fn_ = fe.fn;
  fe.lowering = true;
  for (const Var* p : fe.fn->params) Bind(p->name_hint, p);
  poisoned_.insert(fe.bad_params.begin(), fe.bad_params.end());
  if (fe.def->body_state) {
    // The body was dropped after the first pass: parse it again, lower it and
    // give its syntax nodes back.
    AstPool::Rewind rewind(body_pool_);
    TokenStream toks(*fe.def->body_state, diag_);
    PyStmt* full = nullptr;
    if (outline_) {
      // Its first and only parse: any error sends the file down the full path.
      if (!ParseSkippedBody(toks, body_pool_, fe.def, &full)) throw NeedFullParse{};
      fe.fn->body = LowerBlock(full->body, fe.def->span);
    } else if (ParseDefBody(toks, body_pool_, diag_, &full))
      fe.fn->body = LowerBlock(full->body, fe.def->span);
    else
      Error(fe.def->name_span, fmt::format("internal error: the body of '{}' could not be "
                                           "parsed again",
                                           fe.fn->name));
  } else {
    fe.fn->body = LowerBlock(fe.def->body, fe.def->span);
  }
  if (!fe.returns_declared) fe.fn->return_types = inferred_returns_;
  fe.lowering = false;
  fe.lowered = true;
  scope_ = std::move(saved_scope);
  poisoned_ = std::move(saved_poison);
  cur_fn_ = saved_fn;
  inferred_returns_ = std::move(saved_inferred);
  saw_return_ = saved_saw;
  yield_ctx_ = saved_yield;
  loop_depth_ = saved_loops;
  block_depth_ = saved_blocks;
  alloc_name_ = saved_alloc;
  task_ids_ = std::move(saved_tasks);
}

const Var* Lowerer::LookupVar(const std::string& name) const {
  auto it = scope_.find(name);
  if (it != scope_.end()) return it->second;
  for (const Var* d : dyn_dims_)
    if (d->name_hint == name) return d;
  return nullptr;
}

const Var* Lowerer::Poison(const std::string& name, Span s) {
  const Var* v = ctx_.NewVar(name, ctx_.Unknown(), s);
  poisoned_.insert(v);
  Bind(name, v);
  return v;
}

}  // namespace parser

namespace {

// The program's default name: the file name's stem as an identifier.
std::string ProgramNameFromFile(const std::string& filename) {
  std::string stem = filename;
  size_t slash = stem.find_last_of("/\\");
  if (slash != std::string::npos) stem = stem.substr(slash + 1);
  size_t dot = stem.find('.');
  if (dot != std::string::npos) stem = stem.substr(0, dot);
  std::string clean;
  for (char c : stem) clean += text::IsIdentChar(c) ? c : '_';
  if (clean.empty() || !text::IsIdentStart(clean[0])) clean = "P" + clean;
  return clean;
}

// The fast path for a file without syntax errors: ParseOutline skips every
// function body, and each body is then parsed once, right before it is lowered
// (bodies that are never lowered are parsed at the end, for their errors).
// False when any lexer or syntax error (or anything the skim does not handle)
// turned up: the caller then undoes the attempt and takes the full path, which
// reports the syntax errors exactly as if this had not been tried.
bool ParseOutlined(Context& ctx, int32_t file, const std::string& name, DiagnosticEngine& diag,
                   const ParseOptions& opts, const Program** out) {
  int errors_before = diag.ErrorCount();
  parser::AstPool pool;
  std::vector<parser::PyStmt*> module, skipped;
  {
    parser::TokenStream toks(ctx.sources().FileText(file), file, 0, diag);
    if (!parser::ParseOutline(toks, pool, &module, &skipped)) return false;
  }
  parser::Lowerer lw(ctx, diag, opts, file);
  lw.outline_ = true;
  const Program* p = nullptr;
  try {
    p = lw.Run(module, name, pool);
  } catch (const parser::NeedFullParse&) {
    return false;
  }
  std::unordered_set<const parser::PyStmt*> lowered;
  for (const auto& f : lw.funcs_)
    if (f.lowered) lowered.insert(f.def);
  for (const parser::PyStmt* def : skipped) {
    if (lowered.count(def)) continue;
    parser::AstPool::Rewind rewind(lw.body_pool_);
    parser::TokenStream toks(*def->body_state, diag);
    parser::PyStmt* full = nullptr;
    if (!parser::ParseSkippedBody(toks, lw.body_pool_, def, &full)) return false;
  }
  *out = diag.ErrorCount() > errors_before ? nullptr : p;
  return true;
}

// Parses the file already registered as `file` in ctx.sources().
const Program* ParseRegistered(Context& ctx, int32_t file, const std::string& filename,
                               DiagnosticEngine& diag, const ParseOptions& opts) {
  if (!diag.sources()) diag.set_sources(&ctx.sources());
  std::string name = ProgramNameFromFile(filename);
  DiagnosticEngine::Checkpoint mark = diag.GetCheckpoint();
  uint64_t var_ids = ctx.PeekNextVarId();
  const Program* fast = nullptr;
  if (ParseOutlined(ctx, file, name, diag, opts, &fast)) return fast;
  diag.Truncate(mark);
  ctx.RewindVarIds(var_ids);

  // The full path: every body is parsed for its errors first (so a file with a
  // syntax error reports all of them and nothing else), then again one at a
  // time when lowered, so peak memory is the IR plus one function's syntax tree.
  int errors_before = diag.ErrorCount();
  parser::AstPool pool;
  std::vector<parser::PyStmt*> module;
  {
    parser::TokenStream toks(ctx.sources().FileText(file), file, 0, diag);
    if (!parser::ParseModule(toks, pool, diag, &module)) return nullptr;
  }
  parser::Lowerer lw(ctx, diag, opts, file);
  const Program* p = lw.Run(module, name, pool);
  return diag.ErrorCount() > errors_before ? nullptr : p;
}

}  // namespace

const Program* ParseProgram(Context& ctx, std::string_view text, const std::string& filename,
                            DiagnosticEngine& diag, const ParseOptions& opts) {
  // Leading blank lines shift every position by line_offset and keep the
  // rendered source lines right.
  std::string stored(static_cast<size_t>(std::max(0, opts.line_offset)), '\n');
  stored.append(text);
  int32_t file = ctx.sources().AddFile(filename, std::move(stored));
  return ParseRegistered(ctx, file, filename, diag, opts);
}

const Program* ParseProgramOwned(Context& ctx, std::string&& text, const std::string& filename,
                                 DiagnosticEngine& diag, const ParseOptions& opts) {
  // Same leading blank lines as ParseProgram (rare; the insert may reallocate).
  if (opts.line_offset > 0) text.insert(size_t{0}, static_cast<size_t>(opts.line_offset), '\n');
  int32_t file = ctx.sources().AddFile(filename, std::move(text));
  return ParseRegistered(ctx, file, filename, diag, opts);
}

}  // namespace pypto::ir
