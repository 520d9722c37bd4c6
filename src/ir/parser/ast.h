// Syntax tree of the IR text (a small Python subset) and the syntax parser that
// builds it from tokens. Parsing is split in two: this stage knows only grammar
// (so every syntax error is found with exact positions and statement-level
// recovery), the lowering stage (lower.h) gives the tree IR meaning with types
// in hand (op dispatch, short forms, scoping). Nodes live in an AstPool and are
// freed with it. Node depth is capped so later recursive walks stay shallow.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lexer.h"

namespace pypto::ir::parser {

// Expression trees deeper than this (e.g. a 5000-term `a + a + ...`) are rejected.
constexpr int kMaxExprDepth = 1000;

enum class EK : uint8_t {
  kName,
  kInt,
  kFloat,
  kString,
  kBool,
  kNone,
  kAttr,
  kCall,
  kSubscript,
  kList,
  kTuple,
  kDict,
  kBinary,
  kUnary,
  kCompare,
  kBoolOp,
  kSlice,
  kEllipsis,
  kStarred,
};

struct PyExpr;

struct Keyword {
  std::string name;  // "" for **kwargs (rejected when lowered)
  Span span;
  PyExpr* value = nullptr;
};

struct PyExpr {
  EK kind = EK::kNone;
  bool neg = false;       // kInt: negative literal (`-5` folded at parse time)
  bool overflow = false;  // kInt: literal did not fit in 64 bits
  bool bval = false;      // kBool
  bool parenthesized = false;
  bool fstring = false;  // kString: an f-string (not supported in the program)
  Span span;
  int depth = 1;
  std::string str;              // kName id, kAttr attribute, kString value, op text
  uint64_t ival = 0;            // kInt magnitude
  double fval = 0;              // kFloat
  PyExpr* a = nullptr;          // attr object, call callee, subscript value, lhs, operand
  PyExpr* b = nullptr;          // subscript index, rhs, slice stop
  PyExpr* c = nullptr;          // slice step
  std::vector<PyExpr*> items;   // call args, list/tuple elements, dict keys
  std::vector<PyExpr*> values;  // dict values
  std::vector<Keyword> kwargs;  // call keywords

  // Back to a default node, keeping the vectors' capacity (nodes are reused).
  void Reset() {
    kind = EK::kNone;
    neg = overflow = bval = parenthesized = fstring = false;
    span = Span{};
    depth = 1;
    str.clear();
    ival = 0;
    fval = 0;
    a = b = c = nullptr;
    items.clear();
    values.clear();
    kwargs.clear();
  }
};

enum class SK : uint8_t {
  kExpr,
  kAssign,
  kAugAssign,
  kReturn,
  kPass,
  kBreak,
  kContinue,
  kIf,
  kFor,
  kWhile,
  kWith,
  kDef,
  kClass,
  kImport,
};

struct PyParam {
  std::string name;
  Span span;
  PyExpr* annotation = nullptr;
  PyExpr* default_value = nullptr;
};

struct PyStmt {
  SK kind = SK::kPass;
  Span span;
  PyExpr* target = nullptr;          // assign/for target, with-as target
  PyExpr* annotation = nullptr;      // `x: T = ...`
  std::string_view annotation_text;  // its source text (see Lowerer::AnnotationMatches)
  // The annotation tree is the previous statement's (same text, see
  // SyntaxParser::SameAnnotationAhead): its spans are off by this many lines
  // and columns (Lowerer::OwnAnnotation makes a copy with the right ones).
  bool ann_shared = false;
  int32_t ann_shift_line = 0, ann_shift_col = 0;
  PyExpr* value = nullptr;  // assigned value, expr, return value, cond, iterable, with item
  std::string op;           // augmented-assignment operator ("+")
  std::vector<PyStmt*> body, orelse;
  bool has_else = false;
  Span else_span;
  // def / class
  std::string name;
  Span name_span;
  std::vector<PyExpr*> decorators;
  std::vector<PyParam> params;
  PyExpr* returns = nullptr;
  // kDef from the first pass: where to lex the function again (its `body` is
  // left empty; see ParseDefBody).
  std::shared_ptr<const LexSnapshot> body_state;
  // kDef whose body the outline parse skipped (ParseOutline): where the skim
  // said the body ends, and how many blocks deep the def is (for the limit).
  BlockEnd body_end;
  int body_block_depth = 0;

  // Back to a default node, keeping the vectors' capacity (nodes are reused).
  void Reset() {
    kind = SK::kPass;
    span = Span{};
    target = annotation = value = nullptr;
    annotation_text = {};
    ann_shared = false;
    ann_shift_line = ann_shift_col = 0;
    op.clear();
    body.clear();
    orelse.clear();
    has_else = false;
    else_span = Span{};
    name.clear();
    name_span = Span{};
    decorators.clear();
    params.clear();
    returns = nullptr;
    body_state.reset();
    body_end = BlockEnd{};
    body_block_depth = 0;
  }
};

// Stable-address storage in chunks of 256 nodes: one allocation per chunk
// (std::deque would allocate every two or three nodes of this size). Nodes past
// a Mark can be handed out again after RewindTo (they are Reset, keeping their
// vectors' capacity, so a re-used pool parses without allocating).
template <typename T>
class NodeChunks {
 public:
  struct Mark {
    size_t chunk, used;
  };
  T* New() {
    if (used_ == kChunk) {
      if (++cur_ >= chunks_.size()) {
        chunks_.emplace_back(new T[kChunk]);
        cur_ = chunks_.size() - 1;
      }
      used_ = 0;
    }
    T* t = &chunks_[cur_][used_++];
    t->Reset();
    return t;
  }
  Mark GetMark() const { return {cur_, used_}; }
  void RewindTo(Mark m) {
    cur_ = m.chunk;
    used_ = m.used;
  }

 private:
  static constexpr size_t kChunk = 256;
  std::vector<std::unique_ptr<T[]>> chunks_;
  size_t cur_ = static_cast<size_t>(-1);  // chunk being filled
  size_t used_ = kChunk;
};

struct AstPool {
  NodeChunks<PyExpr> exprs;
  NodeChunks<PyStmt> stmts;
  // Scope guard: nodes made while it lives are given back when it ends (nothing
  // made in the scope may be referenced after it).
  class Rewind {
   public:
    explicit Rewind(AstPool& p) : p_(p), e_(p.exprs.GetMark()), s_(p.stmts.GetMark()) {}
    ~Rewind() {
      p_.exprs.RewindTo(e_);
      p_.stmts.RewindTo(s_);
    }
    Rewind(const Rewind&) = delete;
    Rewind& operator=(const Rewind&) = delete;

   private:
    AstPool& p_;
    NodeChunks<PyExpr>::Mark e_;
    NodeChunks<PyStmt>::Mark s_;
  };
  PyExpr* NewExpr(EK k, Span s) {
    PyExpr* e = exprs.New();
    e->kind = k;
    e->span = s;
    return e;
  }
  PyStmt* NewStmt(SK k, Span s) {
    PyStmt* st = stmts.New();
    st->kind = k;
    st->span = s;
    return st;
  }
};

// Parses the module's statements. Syntax errors are reported to `diag` and the
// offending statement is skipped; returns false when any error was reported or
// parsing had to stop (nesting limit). Module-level statements other than
// `@pl...`-decorated definitions are parsed leniently: a syntax error there
// (test-harness code in an upstream .py file using syntax the IR text does not
// have) silently drops the statement, since such statements are not part of the
// program anyway. Lexer errors and nesting limits are always reported.
// Function bodies are parsed (for their errors) and dropped: each kDef keeps a
// snapshot to parse it again with ParseDefBody when it is lowered, so the trees
// of a whole file are never held at once. Syntax errors are reported only when
// the lexer reported none (the lexer's errors come first and alone).
bool ParseModule(TokenStream& toks, AstPool& pool, DiagnosticEngine& diag,
                 std::vector<PyStmt*>* out);

// The fast first pass: like ParseModule, but the body of every def with an
// indented body is skipped without being lexed (TokenStream::SkipBlock) and
// appended to *skipped, to be parsed once by ParseSkippedBody. Reports nothing:
// false on the first lexer or syntax error of any kind (even in lenient
// statements) or anything the skim does not handle, and the caller then parses
// the file with ParseModule instead (diagnostics of the attempt undone).
bool ParseOutline(TokenStream& toks, AstPool& pool, std::vector<PyStmt*>* out,
                  std::vector<PyStmt*>* skipped);

// Thrown through the lowerer when ParseSkippedBody fails: the file then takes
// the full path (ParseModule) from the start.
struct NeedFullParse {};

// Parses the def `outline` (from ParseOutline) with its body from the stream of
// its body_state. False on any lexer or syntax error, or when the body does not
// end where the first pass's skim said (then the whole file takes the full path).
bool ParseSkippedBody(TokenStream& toks, AstPool& pool, const PyStmt* outline, PyStmt** def);

// Parses a single expression (used for ParseOptions::constants values).
PyExpr* ParseSingleExpr(TokenStream& toks, AstPool& pool, DiagnosticEngine& diag);

// Parses a `def` again from the stream of its body_state; *def gets the full
// node (body included). False (and *def null) only if the text changed.
bool ParseDefBody(TokenStream& toks, AstPool& pool, DiagnosticEngine& diag, PyStmt** def);

// "pl.tile.load" for an attribute chain of names; "" when `e` is not one.
std::string DottedName(const PyExpr* e);
// DottedName(e) == name, without building the string.
bool DottedNameIs(const PyExpr* e, std::string_view name);

}  // namespace pypto::ir::parser
