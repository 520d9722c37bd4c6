// Lexer for the IR text format (Python-like token stream). Produces NEWLINE,
// INDENT and DEDENT tokens from indentation like CPython's tokenizer: newlines
// inside brackets and after a backslash are joined, comments and blank lines
// vanish. Errors (bad indentation, unterminated strings/brackets, non-UTF-8
// bytes, stray characters) are reported with exact line:col; fatal ones
// (invalid UTF-8, nesting deeper than kMaxNesting) stop lexing. Never recurses,
// so hostile input cannot overflow the stack. Tokens are lexed in short runs
// into a ring (never past the end of a logical line), and SkipBlock can step
// over an indented block with a byte-level skim, without lexing it (the
// parser's fast first pass skips function bodies that way).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pypto/core/diagnostics.h"

namespace pypto::ir::parser {

// Brackets, indentation levels and expression nesting are all capped here.
constexpr int kMaxNesting = 200;

enum class Tok : uint8_t {
  kName,
  kInt,
  kFloat,
  kString,
  kOp,
  kNewline,
  kIndent,
  kDedent,
  kEof,
};

// Kept small (64 bytes): the token ring holds kRing of them. Decoded string
// values live in the ring too (valid as long as the token is).
struct Token {
  Tok kind = Tok::kEof;
  bool int_overflow = false;
  bool fstring = false;  // kString written f"..." (kept verbatim, rejected if used)
  Span span;
  std::string_view text;  // source text (for kOp: the operator; kString: raw)
  std::string_view str;   // kString: decoded value (owned by the TokenStream's ring)
  union {
    uint64_t ival = 0;  // kInt
    double fval;        // kFloat
  };

  bool Is(Tok k) const { return kind == k; }
  // Byte by byte (the operand is a literal, so the loop unrolls; a memcmp call
  // cost more): the parser asks these for every token.
  bool IsOp(std::string_view op) const { return kind == Tok::kOp && SameText(op); }
  bool IsName(std::string_view n) const { return kind == Tok::kName && SameText(n); }
  bool SameText(std::string_view s) const {
    if (text.size() != s.size()) return false;
    for (size_t i = 0; i < s.size(); ++i)
      if (text[i] != s[i]) return false;
    return true;
  }
};

class Lexer;

// Where lexing stood just before a `def` keyword: enough to lex the function
// again later from that point (the body is re-parsed right before it is lowered,
// so a whole file's syntax trees never have to be held at once).
struct LexSnapshot {
  std::string_view text;
  int32_t file = -1;
  int line_offset = 0;
  size_t pos = 0;
  size_t line_start = 0;
  int line = 1;
  bool first_line = false;
  std::vector<std::string> indents;
};

// Where a block skipped by TokenStream::SkipBlock ended: the byte offset and
// line of the first token after it (where lexing the block would put its DEDENT).
struct BlockEnd {
  size_t pos = static_cast<size_t>(-1);
  int line = 0;
};

// Tokens of `text` (file id `file` in the SourceManager; `line_offset` is added
// to every line), lexed on demand as the parser asks for them and kept in a
// bounded ring, so memory does not grow with the file. Token references stay
// valid until kRing further tokens have been lexed (the parser looks at most a
// couple of tokens back or ahead). Past the end every index reads the EOF token.
// Lexer errors go straight to `diag`; ok() says whether there were any.
class TokenStream {
 public:
  // > the most tokens one lexer step emits (kMaxNesting DEDENTs at end of
  // file, plus NEWLINE and EOF) + the parser's look-back and look-ahead.
  static constexpr size_t kRing = 512;
  TokenStream(std::string_view text, int32_t file, int line_offset, DiagnosticEngine& diag);
  // Resumes at a snapshot taken at a `def` keyword (see TakeDefSnapshot).
  TokenStream(const LexSnapshot& snap, DiagnosticEngine& diag);
  ~TokenStream();
  TokenStream(const TokenStream&) = delete;
  TokenStream& operator=(const TokenStream&) = delete;

  const Token& At(size_t idx) {
    if (idx < *emitted_) return ring_[idx & (kRing - 1)];
    return Lex(idx);
  }
  // Lexes the rest of the text (reporting its errors); returns ok().
  bool Drain();
  bool ok() const;
  // Records a snapshot at every `def` keyword lexed from now on.
  void RecordDefs(bool on);
  // The snapshot taken at token `idx` (a `def`), or null; forgets older ones.
  std::shared_ptr<const LexSnapshot> TakeDefSnapshot(size_t idx);
  // Skips the indented block under a header whose NEWLINE is token
  // `newline_idx`, the last token lexed, without lexing it: a byte-level skim
  // (strings, comments, brackets, continuations) finds the first logical line
  // indented no deeper than the header and lexing resumes there, so the DEDENTs
  // of the enclosing levels follow as usual (the block's own INDENT and DEDENT
  // are never produced). False, with nothing consumed, when the block is not a
  // plainly well-formed one (anything the lexer might report makes the skim
  // give up). *end: where the block ended (for a later check, see BlockEnd).
  bool SkipBlock(size_t newline_idx, BlockEnd* end);

 private:
  const Token& Lex(size_t idx);
  std::unique_ptr<Lexer> lx_;
  const Token* ring_;      // the lexer's ring (for the inline fast path of At)
  const size_t* emitted_;  // tokens lexed so far
};

std::string_view TokKindName(Tok k);

}  // namespace pypto::ir::parser
