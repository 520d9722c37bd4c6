// The syntax parser (internal to src/ir/parser): one recursive-descent parser
// class over a TokenStream, turning tokens into PyStmt/PyExpr trees (ast.h).
// Its token helpers are inline here; the statement grammar is in
// syntax_stmts.cc, the expression grammar in syntax_exprs.cc, and the entry
// points (ParseModule, ParseSingleExpr, ParseDefBody, ParseOutline,
// ParseSkippedBody) with the error model are in syntax.cc.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ast.h"
#include "text_names.h"

namespace pypto::ir::parser::syntax {

// A syntax error already reported (or held): the statement loop recovers.
struct SyntaxError {};
// Nesting limit exceeded (or any error in kOutline mode): parsing stops.
struct FatalError {};

// "name 'x'", "'('", "number 3", ... for "expected X, found Y" messages.
std::string Describe(const Token& t);

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

  bool Module(std::vector<PyStmt*>* out);
  PyStmt* DefAgain(int block_depth);

  bool ok() const { return ok_; }
  const Token& LastConsumed() { return ts_.At(i_ - 1); }

  PyExpr* Single();

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
  void StatementInto(std::vector<PyStmt*>* out);
  void Recover(size_t start);
  void Statement(std::vector<PyStmt*>* out);
  void SimpleStatements(std::vector<PyStmt*>* out);
  PyStmt* SimpleStatement();
  void RememberAnnotation(PyExpr* ann, std::string_view text, size_t ntok, Span first);
  bool SameAnnotationAhead(const char* begin);
  void Block(std::vector<PyStmt*>* out, std::string_view what);
  void UnexpectedIndent();
  void BlockBody(std::vector<PyStmt*>* out);
  PyStmt* Decorated();
  PyStmt* Def(std::vector<PyExpr*> decos);
  PyStmt* Class(std::vector<PyExpr*> decos);
  PyStmt* If();
  PyStmt* For();
  PyStmt* While();
  PyStmt* With();
  PyExpr* NamedTest();
  PyExpr* TargetList();

  // ---- expressions ------------------------------------------------------
  PyExpr* TestList();
  bool EndOfTestList() const;

  static bool StartsPrimary(const Token& t);
  bool AtDelimiter() const;

  PyExpr* Test();
  PyExpr* OrTest();
  PyExpr* AndTest();
  PyExpr* NotTest();
  PyExpr* Comparison();
  template <typename Sub>
  PyExpr* LeftAssoc(std::initializer_list<std::string_view> ops, Sub sub);
  PyExpr* BitOr();
  PyExpr* BitXor();
  PyExpr* BitAnd();
  PyExpr* Shift();
  PyExpr* Arith();
  PyExpr* Term();
  PyExpr* Factor();
  PyExpr* Power();
  PyExpr* Primary();
  void CallArgs(PyExpr* call);
  PyExpr* SubscriptList();
  PyExpr* SubscriptItem();
  PyExpr* Atom();

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

}  // namespace pypto::ir::parser::syntax
