// Lexer for the IR text format (Python-like token stream). Produces NEWLINE,
// INDENT and DEDENT tokens from indentation like CPython's tokenizer: newlines
// inside brackets and after a backslash are joined, comments and blank lines
// vanish. Errors (bad indentation, unterminated strings/brackets, non-UTF-8
// bytes, stray characters) are reported with exact line:col; fatal ones
// (invalid UTF-8, nesting deeper than kMaxNesting) stop lexing. Never recurses,
// so hostile input cannot overflow the stack.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "pypto/core/diagnostics.h"

namespace pypto::ir::parser {

// Brackets, indentation levels and expression nesting are all capped here.
constexpr int kMaxNesting = 200;

enum class Tok : uint8_t {
  kName, kInt, kFloat, kString, kOp, kNewline, kIndent, kDedent, kEof,
};

// Kept small (64 bytes): a file's whole token stream is held while its syntax
// tree is built. Decoded string values live in the Lex caller's string store.
struct Token {
  Tok kind = Tok::kEof;
  bool int_overflow = false;
  bool fstring = false;   // kString written f"..." (kept verbatim, rejected if used)
  Span span;
  std::string_view text;  // source text (for kOp: the operator; kString: raw)
  std::string_view str;   // kString: decoded value (in the Lex caller's `strings`)
  union {
    uint64_t ival = 0;    // kInt
    double fval;          // kFloat
  };

  bool Is(Tok k) const { return kind == k; }
  // First byte before the full compare: the parser asks these for every token.
  bool IsOp(std::string_view op) const {
    return kind == Tok::kOp && text.size() == op.size() && text[0] == op[0] && text == op;
  }
  bool IsName(std::string_view n) const {
    return kind == Tok::kName && text.size() == n.size() && text[0] == n[0] && text == n;
  }
};

// Tokenizes `text` (file id `file` in the SourceManager; `line_offset` is added
// to every line). Decoded string literal values are stored in `strings` (tokens
// point into it, so it must outlive them). Returns false when any error was
// reported.
bool Lex(std::string_view text, int32_t file, int line_offset, DiagnosticEngine& diag,
         std::vector<Token>* out, std::deque<std::string>* strings);

std::string_view TokKindName(Tok k);

}  // namespace pypto::ir::parser
