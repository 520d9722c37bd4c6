// Block skim implementation (see block_skim.h). Line breaks are "\n", "\r\n"
// or "\r", counted as the lexer's NewLine counts them; blanks are ' ', '\t' and
// '\f' as in the lexer's indentation.
#include "block_skim.h"

#include "lexer.h"  // kMaxNesting

namespace pypto::ir::parser {

namespace {

// Bytes the skim must look at within a line; it steps over all others.
struct SkimTable {
  bool stop[256];
  constexpr SkimTable() : stop() {
    for (char c : std::string_view("\n\r#\\\"'()[]{}")) stop[static_cast<unsigned char>(c)] = true;
  }
};
constexpr SkimTable kSkim;

}  // namespace

bool SkimBlock(std::string_view s, std::string_view top, SkimState* at, size_t* first_token) {
  const size_t n = s.size();
  auto blank = [s](size_t p) { return s[p] == ' ' || s[p] == '\t' || s[p] == '\f'; };
  auto line_break = [s, n](size_t p) { return p < n && (s[p] == '\n' || s[p] == '\r'); };
  size_t p = at->pos;          // start of the current physical line
  size_t ls = at->line_start;  // (as the lexer keeps them)
  int line = at->line;
  // Consumes the line break at q and starts the next line.
  auto next_line = [&](size_t q) {
    if (s[q] == '\r' && q + 1 < n && s[q + 1] == '\n') ++q;
    ++q;
    ++line;
    ls = q;
    return q;
  };
  // Lexing resumes at `resume`; its first token is at `first`.
  auto done = [&](size_t resume, size_t first) {
    at->pos = resume;
    at->line_start = ls;
    at->line = line;
    *first_token = first;
    return true;
  };
  std::string_view block;  // indentation of the block's first line
  for (;;) {
    // At the start of a logical line (p == ls).
    size_t q = p;
    while (q < n && blank(q)) ++q;
    if (q < n && (s[q] == '#' || line_break(q))) {  // blank or comment-only line
      while (q < n && !line_break(q)) ++q;
      if (q >= n) return !block.empty() && done(n, n);
      p = next_line(q);
      continue;
    }
    if (q >= n) return !block.empty() && done(n, n);
    std::string_view ind = s.substr(p, q - p);
    if (block.empty()) {
      // The first line must open a deeper level (else: a syntax error).
      if (ind.size() <= top.size() || ind.substr(0, top.size()) != top) return false;
      block = ind;
    } else if (ind.size() < block.size() || ind.substr(0, block.size()) != block) {
      // Back out of the block: the lexer resumes here (its DEDENTs follow).
      if (block.substr(0, ind.size()) != ind) return false;  // tabs/spaces mixed
      return done(p, q);
    }
    // Rest of the logical line: strings, comments, brackets, continuations.
    int depth = 0;
    for (;;) {
      while (q < n && !kSkim.stop[static_cast<unsigned char>(s[q])]) ++q;
      if (q >= n) return depth == 0 && done(n, n);
      char c = s[q];
      if (c == '\n' || c == '\r') {
        q = next_line(q);
        if (depth == 0) break;
      } else if (c == '#') {
        while (q < n && !line_break(q)) ++q;
      } else if (c == '\\') {
        if (!line_break(q + 1)) return false;
        q = next_line(q + 1);
      } else if (c == '"' || c == '\'') {
        bool triple = q + 2 < n && s[q + 1] == c && s[q + 2] == c;
        q += triple ? 3 : 1;
        for (;;) {
          if (q >= n) return false;
          char ch = s[q];
          if (ch == c && (!triple || (q + 2 < n && s[q + 1] == c && s[q + 2] == c))) {
            q += triple ? 3 : 1;
            break;
          }
          if (ch == '\n' || ch == '\r') {
            if (!triple) return false;
            q = next_line(q);
          } else if (ch == '\\') {
            if (q + 1 >= n) return false;
            q = line_break(q + 1) ? next_line(q + 1) : q + 2;
          } else {
            ++q;
          }
        }
      } else if (c == '(' || c == '[' || c == '{') {
        if (++depth > kMaxNesting) return false;
        ++q;
      } else {  // ) ] }
        if (--depth < 0) return false;
        ++q;
      }
    }
    p = q;
  }
}

}  // namespace pypto::ir::parser
