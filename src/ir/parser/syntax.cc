// Recursive-descent syntax parser: tokens -> PyStmt/PyExpr trees (see ast.h).
// Grammar is Python's, restricted to what the IR text format uses. A syntax
// error throws SyntaxError (already reported); the statement loop catches it,
// skips to the end of the logical line (and the indented block under it) and
// carries on, so one run reports every syntax error. Exceeding the nesting limit
// throws FatalError and stops parsing immediately. The same parser runs in three
// modes (see Mode): full, skeleton (bodies checked, then dropped) and outline
// (bodies skipped unparsed; the first error of any kind stops it silently).
//
// This file holds the entry points and the dotted-name helpers; the parser
// class is declared in syntax_parser.h, its statement grammar is in
// syntax_stmts.cc and its expression grammar in syntax_exprs.cc.
#include "syntax_parser.h"

namespace pypto::ir::parser {

std::string DottedName(const PyExpr* e) {
  // Sized first, then filled back to front: one allocation (none for short names).
  size_t len = 0;
  const PyExpr* x = e;
  for (; x && x->kind == EK::kAttr; x = x->a) len += x->str.size() + 1;
  if (!x || x->kind != EK::kName) return "";
  len += x->str.size();
  std::string s(len, '.');
  for (x = e; x->kind == EK::kAttr; x = x->a) {
    len -= x->str.size();
    s.replace(len, x->str.size(), x->str);
    --len;
  }
  s.replace(0, x->str.size(), x->str);
  return s;
}

bool DottedNameIs(const PyExpr* e, std::string_view name) {
  // Matched from the last part back, without building the string.
  size_t end = name.size();
  const PyExpr* x = e;
  for (; x && x->kind == EK::kAttr; x = x->a) {
    size_t n = x->str.size();
    if (end < n + 1 || name[end - n - 1] != '.' || name.compare(end - n, n, x->str) != 0)
      return false;
    end -= n + 1;
  }
  if (!x || x->kind != EK::kName) return name.empty();
  return end == x->str.size() && name.compare(0, end, x->str) == 0;
}

namespace syntax {

std::string Describe(const Token& t) {
  switch (t.kind) {
    case Tok::kName:
      return fmt::format("name '{}'", t.text);
    case Tok::kOp:
      return fmt::format("'{}'", t.text);
    case Tok::kInt:
    case Tok::kFloat:
      return fmt::format("number {}", t.text);
    case Tok::kString:
      return "string literal";
    default:
      return std::string(TokKindName(t.kind));
  }
}

}  // namespace syntax

using syntax::HeldErrors;
using syntax::Mode;
using syntax::SyntaxParser;

bool ParseModule(TokenStream& toks, AstPool& pool, DiagnosticEngine& diag,
                 std::vector<PyStmt*>* out) {
  HeldErrors held;
  toks.RecordDefs(true);
  SyntaxParser p(toks, pool, held, Mode::kSkeleton);
  bool ok = p.Module(out);
  if (!toks.Drain()) return false;
  held.FlushTo(diag);
  return ok;
}

PyExpr* ParseSingleExpr(TokenStream& toks, AstPool& pool, DiagnosticEngine& diag) {
  HeldErrors held;
  SyntaxParser p(toks, pool, held, Mode::kFull);
  PyExpr* e = p.Single();
  if (!toks.Drain()) return nullptr;
  held.FlushTo(diag);
  return e;
}

bool ParseDefBody(TokenStream& toks, AstPool& pool, DiagnosticEngine& diag, PyStmt** def) {
  HeldErrors held;
  SyntaxParser p(toks, pool, held, Mode::kFull);
  *def = p.DefAgain(0);
  bool ok = toks.ok();
  held.FlushTo(diag);
  return ok && *def != nullptr;
}

bool ParseOutline(TokenStream& toks, AstPool& pool, std::vector<PyStmt*>* out,
                  std::vector<PyStmt*>* skipped) {
  HeldErrors held;  // nothing is reported: any error means the full parse instead
  toks.RecordDefs(true);
  SyntaxParser p(toks, pool, held, Mode::kOutline, skipped);
  bool ok = p.Module(out);
  return toks.Drain() && ok;
}

bool ParseSkippedBody(TokenStream& toks, AstPool& pool, const PyStmt* outline, PyStmt** def) {
  HeldErrors held;  // see ParseOutline
  SyntaxParser p(toks, pool, held, Mode::kFull);
  *def = p.DefAgain(outline->body_block_depth);
  if (!*def || !p.ok() || !toks.ok()) return false;
  if (outline->body_end.pos == BlockEnd{}.pos) return true;  // a same-line body
  // The skim of the first pass must have ended the body exactly where lexing
  // it does: at the body's DEDENT.
  const Token& last = p.LastConsumed();
  return last.Is(Tok::kDedent) &&
         static_cast<size_t>(last.text.data() - outline->body_state->text.data()) ==
             outline->body_end.pos &&
         last.span.line == outline->body_end.line;
}

}  // namespace pypto::ir::parser
