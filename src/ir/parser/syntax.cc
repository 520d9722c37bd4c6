// Recursive-descent syntax parser: tokens -> PyStmt/PyExpr trees (see ast.h).
// Grammar is Python's, restricted to what the IR text format uses. A syntax
// error throws SyntaxError (already reported); the statement loop catches it,
// skips to the end of the logical line (and the indented block under it) and
// carries on, so one run reports every syntax error. Exceeding the nesting limit
// throws FatalError and stops parsing immediately. The same parser runs in three
// modes (see Mode): full, skeleton (bodies checked, then dropped) and outline
// (bodies skipped unparsed; the first error of any kind stops it silently).
#include <fmt/format.h>

#include <utility>

#include "ast.h"
#include "text_names.h"

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

namespace {

struct SyntaxError {};
struct FatalError {};

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

// Syntax errors are held back until the whole text has been lexed: when the
// lexer reports anything, only its errors are shown (as when the file was lexed
// completely before parsing). At most kMaxStored messages are kept; later ones
// are only counted (the engine would not store them anyway).
class HeldErrors {
 public:
  void Add(Span s, std::string msg) {
    if (held_.size() < static_cast<size_t>(DiagnosticEngine::kMaxStored))
      held_.push_back({s, std::move(msg)});
    else
      ++extra_;
  }
  void FlushTo(DiagnosticEngine& diag) {
    for (auto& [s, m] : held_) diag.Error(s, std::move(m));
    for (size_t i = 0; i < extra_; ++i) diag.Error(Span{}, std::string());
    held_.clear();
    extra_ = 0;
  }

 private:
  std::vector<std::pair<Span, std::string>> held_;
  size_t extra_ = 0;
};

// kFull: everything is parsed. kSkeleton: function bodies are parsed for their
// errors, then dropped (each def keeps a snapshot). kOutline: function bodies
// are skipped unparsed (TokenStream::SkipBlock) and the first error of any kind
// stops the parse silently (the caller then parses again in kSkeleton mode).
enum class Mode { kFull, kSkeleton, kOutline };

class SyntaxParser {
 public:
  SyntaxParser(TokenStream& t, AstPool& p, HeldErrors& d, Mode mode,
               std::vector<PyStmt*>* skipped = nullptr)
      : ts_(t), pool_(p), diag_(d), mode_(mode), skipped_(skipped) {}

  bool Module(std::vector<PyStmt*>* out) {
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
  PyStmt* DefAgain(int block_depth) {
    block_depth_ = block_depth;
    try {
      return Def({});
    } catch (const SyntaxError&) {
    } catch (const FatalError&) {
    }
    return nullptr;
  }

  bool ok() const { return ok_; }
  const Token& LastConsumed() { return ts_.At(i_ - 1); }

  PyExpr* Single() {
    try {
      PyExpr* e = TestList();
      while (Peek().Is(Tok::kNewline)) ++i_;
      if (!Peek().Is(Tok::kEof)) Fail(Peek(), "unexpected " + Describe(Peek()) + " after value");
      return ok_ ? e : nullptr;
    } catch (const SyntaxError&) {
    } catch (const FatalError&) {
    }
    return nullptr;
  }

 private:
  const Token& Peek(size_t k = 0) const { return ts_.At(i_ + k); }
  const Token& Next() {
    const Token& t = Peek();
    if (!t.Is(Tok::kEof)) ++i_;  // EOF is the last token: stay on it
    return t;
  }
  bool AcceptOp(std::string_view op) {
    if (Peek().IsOp(op)) {
      Next();
      return true;
    }
    return false;
  }
  bool AcceptName(std::string_view n) {
    if (Peek().IsName(n)) {
      Next();
      return true;
    }
    return false;
  }
  [[noreturn]] void Fail(const Token& t, const std::string& msg) { FailAt(t.span, msg); }
  [[noreturn]] void FailAt(Span at, const std::string& msg) {
    if (mode_ == Mode::kOutline) {
      ok_ = false;
      throw FatalError{};
    }
    if (lenient_ == 0) {
      ok_ = false;
      diag_.Add(at, msg);
    }
    throw SyntaxError{};
  }
  const Token& ExpectOp(std::string_view op, std::string_view context) {
    if (!Peek().IsOp(op))
      Fail(Peek(), fmt::format("expected '{}' {}, found {}", op, context, Describe(Peek())));
    return Next();
  }
  const Token& ExpectName(std::string_view context) {
    if (!Peek().Is(Tok::kName) || text::IsPythonKeyword(Peek().text))
      Fail(Peek(), fmt::format("expected a name {}, found {}", context, Describe(Peek())));
    return Next();
  }

  // Nesting guard for recursive constructs (unary chains, `not`, `**`).
  struct Nest {
    SyntaxParser* p;
    explicit Nest(SyntaxParser* pp, const Token& at) : p(pp) {
      if (++p->nest_ > kMaxNesting) {
        p->ok_ = false;
        p->diag_.Add(at.span, fmt::format("nesting too deep (limit {})", kMaxNesting));
        throw FatalError{};
      }
    }
    ~Nest() { --p->nest_; }
  };

  PyExpr* Node(EK k, Span s, PyExpr* a = nullptr, PyExpr* b = nullptr) {
    PyExpr* e = pool_.NewExpr(k, s);
    e->a = a;
    e->b = b;
    int d = 0;
    if (a) d = std::max(d, a->depth);
    if (b) d = std::max(d, b->depth);
    SetDepth(e, d);
    return e;
  }
  void SetDepth(PyExpr* e, int child_depth) {
    e->depth = std::max(e->depth, child_depth + 1);
    if (e->depth > kMaxExprDepth) {
      ok_ = false;
      diag_.Add(e->span,
                fmt::format("expression too deep (limit {} nested operations)", kMaxExprDepth));
      throw FatalError{};
    }
  }

  // ---- statements -------------------------------------------------------
  void StatementInto(std::vector<PyStmt*>* out) {
    size_t start = i_;
    try {
      Statement(out);
    } catch (const SyntaxError&) {
      Recover(start);
    }
  }

  // Skips the rest of the logical line; an indented block under it is still
  // parsed (for its own errors) and dropped.
  void Recover(size_t start) {
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

  void Statement(std::vector<PyStmt*>* out) {
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

  void SimpleStatements(std::vector<PyStmt*>* out) {
    for (;;) {
      out->push_back(SimpleStatement());
      if (!AcceptOp(";")) break;
      if (Peek().Is(Tok::kNewline)) break;
    }
    if (!Peek().Is(Tok::kNewline) && !Peek().Is(Tok::kEof))
      Fail(Peek(), fmt::format("unexpected {}; expected end of line after the statement",
                               Describe(Peek())));
    if (Peek().Is(Tok::kNewline)) Next();
  }

  PyStmt* SimpleStatement() {
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
      static constexpr std::string_view kUnsupported[] = {
          "global", "nonlocal", "del",  "assert", "raise",  "yield",
          "lambda", "await",    "elif", "else",   "except", "finally"};
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
  void RememberAnnotation(PyExpr* ann, std::string_view text, size_t ntok, Span first) {
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
  bool SameAnnotationAhead(const char* begin) {
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
  void Block(std::vector<PyStmt*>* out, std::string_view what) {
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
  void UnexpectedIndent() {
    if (mode_ == Mode::kOutline) Fail(Peek(), "");
    if (lenient_ == 0) {
      ok_ = false;
      diag_.Add(Peek().span, "unexpected indent");
    }
    std::vector<PyStmt*> dropped;
    BlockBody(&dropped);
  }

  void BlockBody(std::vector<PyStmt*>* out) {
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

  PyStmt* Decorated() {
    std::vector<PyExpr*> decos;
    while (Peek().IsOp("@")) {
      Next();
      decos.push_back(Test());
      if (!Peek().Is(Tok::kNewline))
        Fail(Peek(),
             fmt::format("expected end of line after decorator, found {}", Describe(Peek())));
      Next();
    }
    if (Peek().IsName("def")) return Def(std::move(decos));
    if (Peek().IsName("class")) return Class(std::move(decos));
    Fail(Peek(),
         fmt::format("expected 'def' or 'class' after decorator, found {}", Describe(Peek())));
  }

  PyStmt* Def(std::vector<PyExpr*> decos) {
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

  PyStmt* Class(std::vector<PyExpr*> decos) {
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

  PyStmt* If() {
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

  PyStmt* For() {
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

  PyStmt* While() {
    PyStmt* s = pool_.NewStmt(SK::kWhile, Next().span);
    s->value = NamedTest();
    Block(&s->body, "while condition");
    if (Peek().IsName("else")) Fail(Peek(), "while-else is not supported in IR text");
    return s;
  }

  PyStmt* With() {
    PyStmt* s = pool_.NewStmt(SK::kWith, Next().span);
    s->value = Test();
    if (AcceptName("as")) s->target = TargetList();
    if (Peek().IsOp(","))
      Fail(Peek(), "a with statement takes exactly one scope; nest the with statements instead");
    Block(&s->body, "with item");
    return s;
  }

  PyExpr* NamedTest() {
    PyExpr* e = Test();
    if (Peek().IsOp(":=")) Fail(Peek(), "assignment expressions (':=') are not supported");
    return e;
  }

  // for-loop targets: names, parenthesised/bracketed tuples, commas.
  PyExpr* TargetList() {
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

  // ---- expressions ------------------------------------------------------
  PyExpr* TestList() {
    Span sp = Peek().span;
    PyExpr* first = Test();
    if (!Peek().IsOp(",")) return first;
    PyExpr* t = Node(EK::kTuple, sp);
    t->items.push_back(first);
    SetDepth(t, first->depth);
    while (AcceptOp(",")) {
      if (EndOfTestList()) break;
      t->items.push_back(Test());
      SetDepth(t, t->items.back()->depth);
    }
    return t;
  }
  bool EndOfTestList() const {
    const Token& t = Peek();
    return t.Is(Tok::kNewline) || t.Is(Tok::kEof) || t.IsOp(")") || t.IsOp("]") || t.IsOp("}") ||
           t.IsOp("=") || t.IsOp(":") || t.IsOp(";");
  }

  // A token the precedence descent below would hand straight to Primary (no
  // `not`, no unary operator in front).
  static bool StartsPrimary(const Token& t) {
    switch (t.kind) {
      case Tok::kInt:
      case Tok::kFloat:
      case Tok::kString:
        return true;
      case Tok::kName:
        return t.text != "not";
      case Tok::kOp:
        return t.IsOp("(") || t.IsOp("[") || t.IsOp("{") || t.IsOp("...");
      default:
        return false;
    }
  }
  // A token no level of the descent consumes after an operand.
  bool AtDelimiter() const {
    const Token& n = Peek();
    if (n.Is(Tok::kNewline)) return true;
    if (!n.Is(Tok::kOp) || n.text.size() != 1) return false;
    switch (n.text[0]) {
      case ',':
      case ')':
      case ']':
      case '}':
      case '=':
      case ':':
        return true;
      default:
        return false;
    }
  }

  PyExpr* Test() {
    // Fast path: the primary is parsed first (exactly what the descent would
    // do first); when a delimiter follows it is the whole expression, else it
    // is handed down as `pending_`, taken by Power in place of its Primary.
    if (StartsPrimary(Peek())) {
      PyExpr* p = Primary();
      if (AtDelimiter()) return p;
      pending_ = p;
    }
    PyExpr* e = OrTest();
    if (Peek().IsName("if"))
      Fail(Peek(),
           "conditional expressions (`a if c else b`) are not supported; use an if "
           "statement with pl.yield_");
    return e;
  }

  PyExpr* OrTest() {
    PyExpr* e = AndTest();
    while (Peek().IsName("or")) {
      Span sp = Next().span;
      PyExpr* r = AndTest();
      e = Node(EK::kBoolOp, sp, e, r);
      e->str = "or";
    }
    return e;
  }
  PyExpr* AndTest() {
    PyExpr* e = NotTest();
    while (Peek().IsName("and")) {
      Span sp = Next().span;
      PyExpr* r = NotTest();
      e = Node(EK::kBoolOp, sp, e, r);
      e->str = "and";
    }
    return e;
  }
  PyExpr* NotTest() {
    if (!pending_ && Peek().IsName("not")) {
      Nest guard(this, Peek());
      Span sp = Next().span;
      PyExpr* e = Node(EK::kUnary, sp, NotTest());
      e->str = "not";
      return e;
    }
    return Comparison();
  }
  PyExpr* Comparison() {
    PyExpr* e = BitOr();
    int n = 0;
    for (;;) {
      const Token& t = Peek();
      std::string op;
      if (t.IsOp("<") || t.IsOp(">") || t.IsOp("==") || t.IsOp(">=") || t.IsOp("<=") ||
          t.IsOp("!="))
        op = std::string(t.text);
      else if (t.IsName("in") || t.IsName("is") || (t.IsName("not") && Peek(1).IsName("in")))
        Fail(t, fmt::format("'{}' comparisons are not supported in IR text", t.text));
      else
        break;
      if (++n > 1)
        Fail(t, "chained comparisons (`a < b < c`) are not supported; combine them with 'and'");
      Span sp = Next().span;
      PyExpr* r = BitOr();
      e = Node(EK::kCompare, sp, e, r);
      e->str = op;
    }
    return e;
  }

  template <typename Sub>
  PyExpr* LeftAssoc(std::initializer_list<std::string_view> ops, Sub sub) {
    PyExpr* e = (this->*sub)();
    for (;;) {
      if (!Peek().Is(Tok::kOp)) return e;
      // Cheap reject: most operator tokens here are `,` `)` `]` `=` `:`.
      switch (Peek().text[0]) {
        case '|':
        case '^':
        case '&':
        case '<':
        case '>':
        case '+':
        case '-':
        case '*':
        case '/':
        case '%':
        case '@':
          break;
        default:
          return e;
      }
      std::string_view found;
      for (std::string_view o : ops)
        if (Peek().IsOp(o)) found = o;
      if (found.empty()) return e;
      Span sp = Next().span;
      PyExpr* r = (this->*sub)();
      e = Node(EK::kBinary, sp, e, r);
      e->str = std::string(found);
    }
  }
  PyExpr* BitOr() { return LeftAssoc({"|"}, &SyntaxParser::BitXor); }
  PyExpr* BitXor() { return LeftAssoc({"^"}, &SyntaxParser::BitAnd); }
  PyExpr* BitAnd() { return LeftAssoc({"&"}, &SyntaxParser::Shift); }
  PyExpr* Shift() { return LeftAssoc({"<<", ">>"}, &SyntaxParser::Arith); }
  PyExpr* Arith() { return LeftAssoc({"+", "-"}, &SyntaxParser::Term); }
  PyExpr* Term() { return LeftAssoc({"*", "/", "//", "%", "@"}, &SyntaxParser::Factor); }

  PyExpr* Factor() {
    const Token t = Peek();  // a copy: used again after the operand is parsed
    if (!pending_ && (t.IsOp("-") || t.IsOp("+") || t.IsOp("~"))) {
      Nest guard(this, t);
      Span sp = Next().span;
      // `-5` / `-1.5` fold into negative literals (the printer relies on it).
      if (t.IsOp("-") && (Peek().Is(Tok::kInt) || Peek().Is(Tok::kFloat)) && !Peek(1).IsOp("**") &&
          !Peek(1).IsOp(".") && !Peek(1).IsOp("(") && !Peek(1).IsOp("[")) {
        PyExpr* lit = Atom();
        lit->span = sp;
        if (lit->kind == EK::kInt)
          lit->neg = !lit->neg;
        else
          lit->fval = -lit->fval;
        return lit;
      }
      PyExpr* e = Node(EK::kUnary, sp, Factor());
      e->str = std::string(t.text);
      return e;
    }
    return Power();
  }
  PyExpr* Power() {
    PyExpr* e = pending_ ? std::exchange(pending_, nullptr) : Primary();
    if (Peek().IsOp("**")) {
      Nest guard(this, Peek());
      Span sp = Next().span;
      PyExpr* r = Factor();
      e = Node(EK::kBinary, sp, e, r);
      e->str = "**";
    }
    return e;
  }

  PyExpr* Primary() {
    PyExpr* e = Atom();
    for (;;) {
      const Token& t = Peek();
      // Most primaries end at a delimiter: one test for all three trailers.
      if (!t.Is(Tok::kOp) || t.text.size() != 1 ||
          (t.text[0] != '.' && t.text[0] != '(' && t.text[0] != '['))
        return e;
      if (t.IsOp(".")) {
        Next();
        const Token& n = Peek();
        if (!n.Is(Tok::kName))
          Fail(n, fmt::format("expected an attribute name after '.', found {}", Describe(n)));
        Next();
        e = Node(EK::kAttr, e->span, e);
        e->str = std::string(n.text);
      } else if (t.IsOp("(")) {
        Next();
        PyExpr* call = Node(EK::kCall, e->span, e);
        CallArgs(call);
        e = call;
      } else if (t.IsOp("[")) {
        Next();
        PyExpr* idx = SubscriptList();
        ExpectOp("]", "to close the subscript");
        e = Node(EK::kSubscript, e->span, e, idx);
      } else {
        return e;
      }
    }
  }

  void CallArgs(PyExpr* call) {
    while (!Peek().IsOp(")")) {
      if (Peek().Is(Tok::kName) && Peek(1).IsOp("=") && !text::IsPythonKeyword(Peek().text)) {
        Keyword kw;
        kw.name = std::string(Peek().text);
        kw.span = Next().span;
        Next();  // '='
        kw.value = Test();
        SetDepth(call, kw.value->depth);
        for (const Keyword& k : call->kwargs)
          if (k.name == kw.name)
            Fail(ts_.At(i_ - 1), fmt::format("keyword argument '{}' repeated", kw.name));
        call->kwargs.push_back(kw);
      } else if (Peek().IsOp("**") || Peek().IsOp("*")) {
        Fail(Peek(), "argument unpacking ('*' / '**') is not supported in IR text");
      } else {
        if (!call->kwargs.empty()) Fail(Peek(), "positional argument follows keyword argument");
        PyExpr* a = Test();
        if (Peek().IsOp(":=")) Fail(Peek(), "assignment expressions (':=') are not supported");
        SetDepth(call, a->depth);
        call->items.push_back(a);
      }
      if (!AcceptOp(",")) break;
    }
    ExpectOp(")", "to close the argument list");
  }

  PyExpr* SubscriptList() {
    Span sp = Peek().span;
    PyExpr* first = SubscriptItem();
    if (!Peek().IsOp(",")) return first;
    PyExpr* t = Node(EK::kTuple, sp);
    t->items.push_back(first);
    SetDepth(t, first->depth);
    while (AcceptOp(",")) {
      if (Peek().IsOp("]")) break;
      t->items.push_back(SubscriptItem());
      SetDepth(t, t->items.back()->depth);
    }
    return t;
  }
  PyExpr* SubscriptItem() {
    Span sp = Peek().span;
    PyExpr* lo = nullptr;
    if (!Peek().IsOp(":")) lo = Test();
    if (!Peek().IsOp(":")) return lo;
    Next();
    PyExpr* s = Node(EK::kSlice, sp, lo);
    if (!Peek().IsOp(":") && !Peek().IsOp(",") && !Peek().IsOp("]")) s->b = Test();
    if (AcceptOp(":") && !Peek().IsOp(",") && !Peek().IsOp("]")) s->c = Test();
    return s;
  }

  PyExpr* Atom() {
    const Token& t = Peek();
    switch (t.kind) {
      case Tok::kName: {
        if (text::IsPythonKeyword(t.text)) {
          if (t.text == "True" || t.text == "False") {
            PyExpr* e = Node(EK::kBool, Next().span);
            e->bval = t.text == "True";
            return e;
          }
          if (t.text == "None") return Node(EK::kNone, Next().span);
          Fail(t, fmt::format("unexpected keyword '{}' in an expression", t.text));
        }
        PyExpr* e = Node(EK::kName, Next().span);
        e->str = std::string(t.text);
        return e;
      }
      case Tok::kInt: {
        PyExpr* e = Node(EK::kInt, Next().span);
        e->ival = t.ival;
        e->overflow = t.int_overflow;
        return e;
      }
      case Tok::kFloat: {
        PyExpr* e = Node(EK::kFloat, Next().span);
        e->fval = t.fval;
        return e;
      }
      case Tok::kString: {
        PyExpr* e = Node(EK::kString, Next().span);
        e->str = t.str;
        e->fstring = t.fstring;
        while (Peek().Is(Tok::kString)) e->str += Next().str;  // implicit concatenation
        return e;
      }
      case Tok::kOp:
        break;
      default:
        Fail(t, fmt::format("expected an expression, found {}", Describe(t)));
    }
    if (t.IsOp("(")) {
      Span sp = Next().span;
      if (AcceptOp(")")) return Node(EK::kTuple, sp);
      PyExpr* first = Test();
      if (AcceptOp(")")) {
        first->parenthesized = true;
        return first;
      }
      if (!Peek().IsOp(","))
        Fail(Peek(), fmt::format("expected ')' or ',' in parentheses, found {}", Describe(Peek())));
      PyExpr* tup = Node(EK::kTuple, sp);
      tup->items.push_back(first);
      SetDepth(tup, first->depth);
      while (AcceptOp(",")) {
        if (Peek().IsOp(")")) break;
        tup->items.push_back(Test());
        SetDepth(tup, tup->items.back()->depth);
      }
      ExpectOp(")", "to close the tuple");
      tup->parenthesized = true;
      return tup;
    }
    if (t.IsOp("[")) {
      Span sp = Next().span;
      PyExpr* l = Node(EK::kList, sp);
      while (!Peek().IsOp("]")) {
        l->items.push_back(Test());
        SetDepth(l, l->items.back()->depth);
        if (Peek().IsName("for")) Fail(Peek(), "list comprehensions are not supported");
        if (!AcceptOp(",")) break;
      }
      ExpectOp("]", "to close the list");
      return l;
    }
    if (t.IsOp("{")) {
      Span sp = Next().span;
      PyExpr* d = Node(EK::kDict, sp);
      while (!Peek().IsOp("}")) {
        d->items.push_back(Test());
        ExpectOp(":", "between a dict key and its value");
        d->values.push_back(Test());
        SetDepth(d, std::max(d->items.back()->depth, d->values.back()->depth));
        if (!AcceptOp(",")) break;
      }
      ExpectOp("}", "to close the dict");
      return d;
    }
    if (t.IsOp("...")) return Node(EK::kEllipsis, Next().span);
    Fail(t, fmt::format("expected an expression, found {}", Describe(t)));
  }

  TokenStream& ts_;
  size_t i_ = 0;
  AstPool& pool_;
  HeldErrors& diag_;
  Mode mode_;
  std::vector<PyStmt*>* skipped_;  // kOutline: the defs whose bodies were skipped
  PyExpr* pending_ = nullptr;      // a primary already parsed by Test (see there)
  bool ok_ = true;
  int nest_ = 0;
  int block_depth_ = 0;
  int lenient_ = 0;             // > 0: syntax errors drop the statement without a diagnostic
  PyExpr* prev_ann_ = nullptr;  // see RememberAnnotation
  std::string_view prev_ann_text_;
  size_t prev_ann_ntok_ = 0;
  Span prev_ann_span_;
  int prev_ann_nest_ = 0;
};

}  // namespace

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
