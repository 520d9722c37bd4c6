// The syntax parser's statement grammar: the module and block loops with
// error recovery (a syntax error skips the rest of the logical line and the
// block under it), simple statements (assignments, annotated assignments with
// the shared-annotation fast path, augmented assignments, return/pass/...),
// decorators, def (with the skeleton / outline body modes), class, if/elif/else,
// for, while and with. The class is declared in syntax_parser.h.
#include "syntax_parser.h"

namespace pypto::ir::parser::syntax {

bool SyntaxParser::Module(std::vector<PyStmt*>* out) {
  try {
    while (!Peek().Is(Tok::kEof)) {
      if (Peek().Is(Tok::kNewline)) {
        ++i_;
        continue;
      }
      if (Peek().Is(Tok::kIndent)) {
        UnexpectedIndent();
        continue;
      }
      // Only `@pl...` definitions are the program; everything else at module
      // level is parsed leniently (see ParseModule).
      bool strict = Peek().IsOp("@") && Peek(1).IsName("pl");
      if (!strict) ++lenient_;
      StatementInto(out);
      if (!strict) --lenient_;
    }
  } catch (const FatalError&) {
    return false;
  }
  return ok_;
}

// A function parsed again from its snapshot, `block_depth` blocks deep.
PyStmt* SyntaxParser::DefAgain(int block_depth) {
  block_depth_ = block_depth;
  try {
    return Def({});
  } catch (const SyntaxError&) {
  } catch (const FatalError&) {
  }
  return nullptr;
}

void SyntaxParser::StatementInto(std::vector<PyStmt*>* out) {
  size_t start = i_;
  try {
    Statement(out);
  } catch (const SyntaxError&) {
    Recover(start);
  }
}

// Skips the rest of the logical line; an indented block under it is still
// parsed (for its own errors) and dropped.
void SyntaxParser::Recover(size_t start) {
  if (i_ == start) Next();
  while (!Peek().Is(Tok::kNewline) && !Peek().Is(Tok::kEof) && !Peek().Is(Tok::kIndent) &&
         !Peek().Is(Tok::kDedent))
    Next();
  if (Peek().Is(Tok::kNewline)) Next();
  if (Peek().Is(Tok::kIndent)) {
    std::vector<PyStmt*> dropped;
    BlockBody(&dropped);
  }
}

void SyntaxParser::Statement(std::vector<PyStmt*>* out) {
  const Token& t = Peek();
  if (t.IsOp("@")) return out->push_back(Decorated());
  if (t.Is(Tok::kName) && text::IsPythonKeyword(t.text)) {
    std::string_view n = t.text;
    if (n == "def") return out->push_back(Def({}));
    if (n == "class") return out->push_back(Class({}));
    if (n == "if") return out->push_back(If());
    if (n == "for") return out->push_back(For());
    if (n == "while") return out->push_back(While());
    if (n == "with") return out->push_back(With());
    if (n == "try" || n == "async")
      Fail(t, fmt::format("'{}' statements are not supported in IR text", n));
  }
  SimpleStatements(out);
}

void SyntaxParser::SimpleStatements(std::vector<PyStmt*>* out) {
  for (;;) {
    out->push_back(SimpleStatement());
    if (!AcceptOp(";")) break;
    if (Peek().Is(Tok::kNewline)) break;
  }
  if (!Peek().Is(Tok::kNewline) && !Peek().Is(Tok::kEof))
    Fail(Peek(),
         fmt::format("unexpected {}; expected end of line after the statement", Describe(Peek())));
  if (Peek().Is(Tok::kNewline)) Next();
}

PyStmt* SyntaxParser::SimpleStatement() {
  const Token& t = Peek();
  const Span sp = t.span;  // kept: `t` may leave the ring while the expression is parsed
  if (t.Is(Tok::kName) && text::IsPythonKeyword(t.text)) {
    std::string_view n = t.text;
    if (n == "pass") {
      Next();
      return pool_.NewStmt(SK::kPass, sp);
    }
    if (n == "break") {
      Next();
      return pool_.NewStmt(SK::kBreak, sp);
    }
    if (n == "continue") {
      Next();
      return pool_.NewStmt(SK::kContinue, sp);
    }
    if (n == "return") {
      Next();
      PyStmt* s = pool_.NewStmt(SK::kReturn, sp);
      if (!Peek().Is(Tok::kNewline) && !Peek().IsOp(";") && !Peek().Is(Tok::kEof))
        s->value = TestList();
      return s;
    }
    if (n == "import" || n == "from") {
      while (!Peek().Is(Tok::kNewline) && !Peek().Is(Tok::kEof) && !Peek().IsOp(";")) Next();
      return pool_.NewStmt(SK::kImport, sp);
    }
    static constexpr std::string_view kUnsupported[] = {"global", "nonlocal", "del",    "assert",
                                                        "raise",  "yield",    "lambda", "await",
                                                        "elif",   "else",     "except", "finally"};
    for (std::string_view u : kUnsupported)
      if (n == u)
        Fail(t, u == "elif" || u == "else" || u == "except" || u == "finally"
                    ? fmt::format("'{}' without a matching statement before it", u)
                    : fmt::format("'{}' is not supported in IR text", u));
  }
  PyExpr* first = TestList();
  if (Peek().IsOp(":")) {  // annotated assignment
    Next();
    if (first->kind != EK::kName)
      FailAt(sp, "only a plain name can be annotated (`name: Type = value`)");
    PyStmt* s = pool_.NewStmt(SK::kAssign, sp);
    s->target = first;
    const char* ann_begin = Peek().text.data();
    const Span ann_span = Peek().span;
    if (SameAnnotationAhead(ann_begin)) {
      // Byte-identical to the last annotation parsed: share its tree (the
      // lowerer shifts its spans if it ever needs them, see ann_shift_*).
      s->annotation = prev_ann_;
      s->annotation_text = std::string_view(ann_begin, prev_ann_text_.size());
      s->ann_shift_line = ann_span.line - prev_ann_span_.line;
      s->ann_shift_col = ann_span.col - prev_ann_span_.col;
      s->ann_shared = true;
      i_ += prev_ann_ntok_;
    } else {
      const size_t ann_tok = i_;
      s->annotation = Test();
      const Token& last = ts_.At(i_ - 1);
      s->annotation_text = std::string_view(
          ann_begin, static_cast<size_t>(last.text.data() + last.text.size() - ann_begin));
      RememberAnnotation(s->annotation, s->annotation_text, i_ - ann_tok, ann_span);
    }
    if (AcceptOp("="))
      s->value = TestList();
    else
      Fail(Peek(), fmt::format("expected '=' after the annotation of '{}', found {}", first->str,
                               Describe(Peek())));
    return s;
  }
  if (Peek().IsOp("=")) {
    Next();
    PyStmt* s = pool_.NewStmt(SK::kAssign, sp);
    s->target = first;
    s->value = TestList();
    if (Peek().IsOp("="))
      Fail(Peek(),
           "chained assignment (`a = b = c`) is not supported; assign one name at a "
           "time");
    return s;
  }
  static constexpr std::string_view kAug[] = {
      "+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>="};
  for (std::string_view a : kAug) {
    if (Peek().IsOp(a)) {
      Next();
      PyStmt* s = pool_.NewStmt(SK::kAugAssign, sp);
      s->target = first;
      s->op = std::string(a.substr(0, a.size() - 1));
      s->value = TestList();
      return s;
    }
  }
  PyStmt* s = pool_.NewStmt(SK::kExpr, sp);
  s->value = first;
  return s;
}

// The last annotation parsed (of `x: T = v`), for SameAnnotationAhead. Only
// one-line texts are remembered (then a shared tree's spans differ from the
// right ones by one line and column offset); forgotten at every def, whose
// first-pass body nodes are given back to the pool.
void SyntaxParser::RememberAnnotation(PyExpr* ann, std::string_view text, size_t ntok, Span first) {
  prev_ann_ = nullptr;
  if (text.empty() || ntok == 0 || ntok > 64 || text.find('\n') != std::string_view::npos ||
      text.find('\\') != std::string_view::npos || text.find('\0') != std::string_view::npos)
    return;
  prev_ann_ = ann;
  prev_ann_text_ = text;
  prev_ann_ntok_ = ntok;
  prev_ann_span_ = first;
  prev_ann_nest_ = nest_;
}

// Whether the tokens from the current one on are exactly those of the last
// annotation: the same bytes, ending at a token boundary. The lexer's state
// at an annotation is always the same (outside brackets, mid-line), so equal
// bytes lex to equal tokens, except that the last one could run on; checking
// where the prev_ann_ntok_-th token ends rules that out.
// The bytes are compared first, one by one: the remembered text has no
// newline or NUL, so the loop stops at the end of the current line (source
// texts are NUL-terminated strings) and the tokens then lexed to check the
// boundary all lie on this line (no look-ahead past it).
bool SyntaxParser::SameAnnotationAhead(const char* begin) {
  if (!prev_ann_ || nest_ != prev_ann_nest_ || pending_ || !begin) return false;
  const size_t n = prev_ann_text_.size();
  for (size_t k = 0; k < n; ++k)
    if (begin[k] != prev_ann_text_[k]) return false;
  const Token& last = ts_.At(i_ + prev_ann_ntok_ - 1);
  if (last.Is(Tok::kEof) || last.Is(Tok::kNewline) || last.Is(Tok::kIndent) ||
      last.Is(Tok::kDedent))
    return false;
  if (last.text.data() + last.text.size() != begin + n) return false;
  // Followed by `=`, which cannot continue an expression: Test() would stop
  // exactly there too (anything else, e.g. a `[`, might extend it).
  return Peek(prev_ann_ntok_).IsOp("=");
}

// `:` NEWLINE INDENT stmts DEDENT, or `:` simple statements on the same line.
void SyntaxParser::Block(std::vector<PyStmt*>* out, std::string_view what) {
  if (!Peek().IsOp(":"))
    Fail(Peek(), fmt::format("expected ':' after {}, found {}", what, Describe(Peek())));
  Next();
  if (!Peek().Is(Tok::kNewline)) {
    SimpleStatements(out);
    return;
  }
  Next();
  if (!Peek().Is(Tok::kIndent))
    Fail(Peek(), fmt::format("expected an indented block after {}", what));
  BlockBody(out);
}

// An indented block where none may start: reported, parsed for errors, dropped.
void SyntaxParser::UnexpectedIndent() {
  if (mode_ == Mode::kOutline) Fail(Peek(), "");
  if (lenient_ == 0) {
    ok_ = false;
    diag_.Add(Peek().span, "unexpected indent");
  }
  std::vector<PyStmt*> dropped;
  BlockBody(&dropped);
}

void SyntaxParser::BlockBody(std::vector<PyStmt*>* out) {
  Next();  // INDENT
  if (++block_depth_ > kMaxNesting) {
    ok_ = false;
    diag_.Add(Peek().span, fmt::format("nesting too deep (limit {})", kMaxNesting));
    throw FatalError{};
  }
  while (!Peek().Is(Tok::kDedent) && !Peek().Is(Tok::kEof)) {
    if (Peek().Is(Tok::kNewline)) {
      Next();
      continue;
    }
    if (Peek().Is(Tok::kIndent)) {
      UnexpectedIndent();
      continue;
    }
    StatementInto(out);
  }
  if (Peek().Is(Tok::kDedent)) Next();
  --block_depth_;
}

PyStmt* SyntaxParser::Decorated() {
  std::vector<PyExpr*> decos;
  while (Peek().IsOp("@")) {
    Next();
    decos.push_back(Test());
    if (!Peek().Is(Tok::kNewline))
      Fail(Peek(), fmt::format("expected end of line after decorator, found {}", Describe(Peek())));
    Next();
  }
  if (Peek().IsName("def")) return Def(std::move(decos));
  if (Peek().IsName("class")) return Class(std::move(decos));
  Fail(Peek(),
       fmt::format("expected 'def' or 'class' after decorator, found {}", Describe(Peek())));
}

PyStmt* SyntaxParser::Def(std::vector<PyExpr*> decos) {
  size_t def_tok = i_;
  PyStmt* s = pool_.NewStmt(SK::kDef, Next().span);
  // A body's annotations are not shared past its def (its first-pass nodes
  // are given back to the pool, see below), however the def is left.
  struct ForgetAnnotation {
    PyExpr*& p;
    ~ForgetAnnotation() { p = nullptr; }
  } forget{prev_ann_};
  prev_ann_ = nullptr;
  s->decorators = std::move(decos);
  const Token& name = ExpectName("after 'def'");
  s->name = std::string(name.text);
  s->name_span = name.span;
  ExpectOp("(", "after the function name");
  while (!Peek().IsOp(")")) {
    if (Peek().IsOp("*") || Peek().IsOp("**") || Peek().IsOp("/"))
      Fail(Peek(), "variadic and positional-only parameters are not supported");
    const Token& pn = ExpectName("for a parameter");
    PyParam p;
    p.name = std::string(pn.text);
    p.span = pn.span;
    if (AcceptOp(":")) p.annotation = Test();
    if (AcceptOp("=")) p.default_value = Test();
    s->params.push_back(p);
    if (!AcceptOp(",")) break;
  }
  ExpectOp(")", "to close the parameter list");
  if (AcceptOp("->")) s->returns = Test();
  if (mode_ != Mode::kFull) s->body_state = ts_.TakeDefSnapshot(def_tok);
  if (mode_ == Mode::kOutline) {
    if (!s->body_state) Fail(Peek(), "");
    s->body_block_depth = block_depth_;
    if (Peek().IsOp(":") && Peek(1).Is(Tok::kNewline)) {
      // The body is skipped here and parsed once, when it is lowered.
      if (!ts_.SkipBlock(i_ + 1, &s->body_end)) Fail(Peek(), "");
      i_ += 2;
      skipped_->push_back(s);
      return s;
    }
  }
  if (!s->body_state) {
    Block(&s->body, "the function signature");
    return s;
  }
  // First pass: the body is parsed for its errors, then its nodes are reused;
  // it is parsed again from the snapshot when the function is lowered.
  AstPool::Rewind rewind(pool_);
  std::vector<PyStmt*> dropped;
  Block(&dropped, "the function signature");
  return s;
}

PyStmt* SyntaxParser::Class(std::vector<PyExpr*> decos) {
  PyStmt* s = pool_.NewStmt(SK::kClass, Next().span);
  s->decorators = std::move(decos);
  const Token& name = ExpectName("after 'class'");
  s->name = std::string(name.text);
  s->name_span = name.span;
  if (AcceptOp("(")) {
    while (!Peek().IsOp(")") && !Peek().Is(Tok::kEof)) Test(), AcceptOp(",");
    ExpectOp(")", "to close the base-class list");
  }
  Block(&s->body, "the class header");
  return s;
}

PyStmt* SyntaxParser::If() {
  PyStmt* s = pool_.NewStmt(SK::kIf, Next().span);
  s->value = NamedTest();
  Block(&s->body, "if condition");
  if (Peek().IsName("elif")) {
    // elif chains nest: count them against the block depth limit.
    if (++block_depth_ > kMaxNesting) {
      ok_ = false;
      diag_.Add(Peek().span, fmt::format("nesting too deep (limit {})", kMaxNesting));
      throw FatalError{};
    }
    s->has_else = true;
    s->else_span = Peek().span;
    s->orelse.push_back(If());
    --block_depth_;
  } else if (Peek().IsName("else")) {
    s->has_else = true;
    s->else_span = Next().span;
    Block(&s->orelse, "'else'");
  }
  return s;
}

PyStmt* SyntaxParser::For() {
  PyStmt* s = pool_.NewStmt(SK::kFor, Next().span);
  s->target = TargetList();
  if (!AcceptName("in"))
    Fail(Peek(),
         fmt::format("expected 'in' after the for-loop target, found {}", Describe(Peek())));
  s->value = TestList();
  Block(&s->body, "for header");
  if (Peek().IsName("else")) Fail(Peek(), "for-else is not supported in IR text");
  return s;
}

PyStmt* SyntaxParser::While() {
  PyStmt* s = pool_.NewStmt(SK::kWhile, Next().span);
  s->value = NamedTest();
  Block(&s->body, "while condition");
  if (Peek().IsName("else")) Fail(Peek(), "while-else is not supported in IR text");
  return s;
}

PyStmt* SyntaxParser::With() {
  PyStmt* s = pool_.NewStmt(SK::kWith, Next().span);
  s->value = Test();
  if (AcceptName("as")) s->target = TargetList();
  if (Peek().IsOp(","))
    Fail(Peek(), "a with statement takes exactly one scope; nest the with statements instead");
  Block(&s->body, "with item");
  return s;
}

PyExpr* SyntaxParser::NamedTest() {
  PyExpr* e = Test();
  if (Peek().IsOp(":=")) Fail(Peek(), "assignment expressions (':=') are not supported");
  return e;
}

// for-loop targets: names, parenthesised/bracketed tuples, commas.
PyExpr* SyntaxParser::TargetList() {
  Span sp = Peek().span;
  std::vector<PyExpr*> items;
  bool trailing = false;
  for (;;) {
    items.push_back(BitOr());
    trailing = false;
    if (!AcceptOp(",")) break;
    trailing = true;
    if (Peek().IsName("in") || Peek().IsOp("=") || Peek().IsOp(":")) break;
  }
  if (items.size() == 1 && !trailing) return items[0];
  PyExpr* t = Node(EK::kTuple, sp);
  for (PyExpr* e : items) SetDepth(t, e->depth);
  t->items = std::move(items);
  return t;
}

}  // namespace pypto::ir::parser::syntax
