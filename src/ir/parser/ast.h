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
  kName, kInt, kFloat, kString, kBool, kNone, kAttr, kCall, kSubscript, kList, kTuple, kDict,
  kBinary, kUnary, kCompare, kBoolOp, kSlice, kEllipsis, kStarred,
};

struct PyExpr;

struct Keyword {
  std::string name;  // "" for **kwargs (rejected when lowered)
  Span span;
  PyExpr* value = nullptr;
};

struct PyExpr {
  EK kind = EK::kNone;
  bool neg = false;          // kInt: negative literal (`-5` folded at parse time)
  bool overflow = false;     // kInt: literal did not fit in 64 bits
  bool bval = false;         // kBool
  bool parenthesized = false;
  bool fstring = false;      // kString: an f-string (not supported in the program)
  Span span;
  int depth = 1;
  std::string str;           // kName id, kAttr attribute, kString value, op text
  uint64_t ival = 0;         // kInt magnitude
  double fval = 0;           // kFloat
  PyExpr* a = nullptr;       // attr object, call callee, subscript value, lhs, operand
  PyExpr* b = nullptr;       // subscript index, rhs, slice stop
  PyExpr* c = nullptr;       // slice step
  std::vector<PyExpr*> items;   // call args, list/tuple elements, dict keys
  std::vector<PyExpr*> values;  // dict values
  std::vector<Keyword> kwargs;  // call keywords
};

enum class SK : uint8_t {
  kExpr, kAssign, kAugAssign, kReturn, kPass, kBreak, kContinue, kIf, kFor, kWhile, kWith,
  kDef, kClass, kImport,
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
  PyExpr* target = nullptr;      // assign/for target, with-as target
  PyExpr* annotation = nullptr;  // `x: T = ...`
  PyExpr* value = nullptr;       // assigned value, expr, return value, cond, iterable, with item
  std::string op;                // augmented-assignment operator ("+")
  std::vector<PyStmt*> body, orelse;
  bool has_else = false;
  Span else_span;
  // def / class
  std::string name;
  Span name_span;
  std::vector<PyExpr*> decorators;
  std::vector<PyParam> params;
  PyExpr* returns = nullptr;
};

// Stable-address storage in chunks of 256 nodes: one allocation per chunk
// (std::deque would allocate every two or three nodes of this size).
template <typename T>
class NodeChunks {
 public:
  T* New() {
    if (used_ == kChunk) {
      chunks_.emplace_back(new T[kChunk]);
      used_ = 0;
    }
    return &chunks_.back()[used_++];
  }

 private:
  static constexpr size_t kChunk = 256;
  std::vector<std::unique_ptr<T[]>> chunks_;
  size_t used_ = kChunk;
};

struct AstPool {
  NodeChunks<PyExpr> exprs;
  NodeChunks<PyStmt> stmts;
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
bool ParseModule(const std::vector<Token>& toks, AstPool& pool, DiagnosticEngine& diag,
                 std::vector<PyStmt*>* out);

// Parses a single expression (used for ParseOptions::constants values).
PyExpr* ParseSingleExpr(const std::vector<Token>& toks, AstPool& pool, DiagnosticEngine& diag);

// "pl.tile.load" for an attribute chain of names; "" when `e` is not one.
std::string DottedName(const PyExpr* e);

}  // namespace pypto::ir::parser
