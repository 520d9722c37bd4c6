// Lexer implementation (see lexer.h). One forward pass over the bytes; columns are
// 1-based byte offsets within the line. Indentation levels are kept as the exact
// whitespace strings so tab/space mixing is detected by prefix comparison: a new
// level must extend the enclosing one, a dedent must return to one exactly.
#include "lexer.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <deque>

#include "block_skim.h"
#include "text_names.h"

namespace pypto::ir::parser {

std::string_view TokKindName(Tok k) {
  switch (k) {
    case Tok::kName:
      return "name";
    case Tok::kInt:
      return "integer";
    case Tok::kFloat:
      return "float";
    case Tok::kString:
      return "string";
    case Tok::kOp:
      return "operator";
    case Tok::kNewline:
      return "end of line";
    case Tok::kIndent:
      return "indent";
    case Tok::kDedent:
      return "dedent";
    case Tok::kEof:
      return "end of file";
  }
  return "?";
}

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// What a byte starts, looked up once per token in Step (a chain of compares
// was the lexer's main cost). kIdent also marks identifier characters.
enum CharClass : uint8_t {
  kCOther,
  kCBlank,
  kCLineBreak,
  kCHash,
  kCBackslash,
  kCIdent,
  kCDigit,
  kCDot,
  kCQuote,
  kCHigh,
};
struct CharTable {
  uint8_t cls[256];
  bool ident[256];  // identifier character (letters, digits, '_')
  constexpr CharTable() : cls(), ident() {
    for (int c = 0; c < 256; ++c) {
      uint8_t k = kCOther;
      if (c == ' ' || c == '\t' || c == '\f')
        k = kCBlank;
      else if (c == '\n' || c == '\r')
        k = kCLineBreak;
      else if (c == '#')
        k = kCHash;
      else if (c == '\\')
        k = kCBackslash;
      else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
        k = kCIdent;
      else if (c >= '0' && c <= '9')
        k = kCDigit;
      else if (c == '.')
        k = kCDot;
      else if (c == '"' || c == '\'')
        k = kCQuote;
      else if (c >= 0x80)
        k = kCHigh;
      cls[c] = k;
      ident[c] = k == kCIdent || k == kCDigit;
    }
  }
};
constexpr CharTable kChars;

inline uint8_t ClassOf(char c) { return kChars.cls[static_cast<unsigned char>(c)]; }
inline bool IdentChar(char c) { return kChars.ident[static_cast<unsigned char>(c)]; }
int HexVal(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Length of the valid UTF-8 sequence at s[i], or 0 when invalid.
size_t Utf8Len(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t n;
  uint32_t min;
  if ((c & 0xE0) == 0xC0)
    n = 2, min = 0x80;
  else if ((c & 0xF0) == 0xE0)
    n = 3, min = 0x800;
  else if ((c & 0xF8) == 0xF0)
    n = 4, min = 0x10000;
  else
    return 0;
  if (i + n > s.size()) return 0;
  uint32_t cp = c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

class Lexer {
 public:
  Lexer(std::string_view text, int32_t file, int line_offset, DiagnosticEngine& diag)
      : s_(text), file_(file), line_offset_(line_offset), diag_(diag) {
    ring_.resize(TokenStream::kRing);
    indents_.push_back("");
    if (!CheckUtf8()) fatal_ = true;
  }
  Lexer(const LexSnapshot& snap, DiagnosticEngine& diag)
      : s_(snap.text), file_(snap.file), line_offset_(snap.line_offset), diag_(diag) {
    ring_.resize(TokenStream::kRing);
    pos_ = snap.pos;
    line_start_ = snap.line_start;
    line_ = snap.line;
    at_line_start_ = false;
    first_line_ = snap.first_line;
    indents_ = snap.indents;
  }

  // Token `idx` (absolute), lexing as far as needed; past the end, the EOF token.
  // Lexes in batches, up to kAhead tokens past `idx` but never past the end of a
  // logical line (SkipBlock needs the NEWLINE of a header to be the last token
  // lexed), so the parser does not call in for every token.
  static constexpr size_t kAhead = 16;
  static constexpr int kRun = 16;  // see Step
  static_assert(kAhead + kRun + kMaxNesting + 8 < TokenStream::kRing / 2);
  const Token& At(size_t idx) {
    while (!done_ && (emitted_ <= idx || (emitted_ < idx + kAhead && !Last().Is(Tok::kNewline)))) {
      if (fatal_ || pos_ >= s_.size())
        Finish();
      else
        Step();
    }
    if (idx >= emitted_) idx = emitted_ - 1;
    return ring_[idx & (TokenStream::kRing - 1)];
  }
  bool Drain() {
    while (!done_) At(emitted_);
    return ok_;
  }
  bool ok() const { return ok_; }
  const Token* Ring() const { return ring_.data(); }
  const size_t* Emitted() const { return &emitted_; }
  void RecordDefs(bool on) { record_defs_ = on; }
  std::shared_ptr<const LexSnapshot> TakeDefSnapshot(size_t idx) {
    std::shared_ptr<const LexSnapshot> found;
    while (!defs_.empty() && defs_.front().first <= idx) {
      if (defs_.front().first == idx) found = std::move(defs_.front().second);
      defs_.pop_front();
    }
    return found;
  }

  // See TokenStream::SkipBlock.
  bool SkipBlock(size_t newline_idx, BlockEnd* end) {
    if (emitted_ != newline_idx + 1 || !at_line_start_ || !brackets_.empty() || !ok_ || fatal_ ||
        done_ || !Last().Is(Tok::kNewline))
      return false;
    SkimState at{pos_, line_start_, line_};
    size_t first_token = 0;
    if (!SkimBlock(s_, indents_.back(), &at, &first_token)) return false;
    pos_ = at.pos;
    line_start_ = at.line_start;
    line_ = at.line;
    end->pos = first_token;
    end->line = line_ + line_offset_;
    return true;
  }

 private:
  // End of input (or a fatal error): closing NEWLINE, DEDENTs and EOF.
  void Finish() {
    done_ = true;
    if (fatal_) {
      Emit(Tok::kEof, pos_ < s_.size() ? pos_ : s_.size(), 0);
      return;
    }
    if (!brackets_.empty() && ok_) {  // after another error it is usually a cascade
      const Open& o = brackets_.back();
      Error(o.span, fmt::format("'{}' was never closed; expected '{}' before end of file", o.c,
                                Closer(o.c)));
    }
    if (emitted_ > 0 && !Last().Is(Tok::kNewline)) Emit(Tok::kNewline, pos_, 0);
    while (indents_.size() > 1) {
      indents_.pop_back();
      Emit(Tok::kDedent, pos_, 0);
    }
    Emit(Tok::kEof, pos_, 0);
  }
  Token& Last() { return ring_[(emitted_ - 1) & (TokenStream::kRing - 1)]; }

  struct Open {
    char c;
    Span span;
  };

  Span SpanAt(size_t p, size_t len) {
    Span sp;
    sp.file = file_;
    sp.line = line_ + line_offset_;
    sp.col = static_cast<int32_t>(p - line_start_ + 1);
    sp.length = static_cast<int32_t>(len == 0 ? 1 : len);
    return sp;
  }
  void Error(Span sp, std::string msg) {
    ok_ = false;
    diag_.Error(sp, std::move(msg));
  }
  // Only the fields every token has are set: the value fields (ival/fval, str)
  // are written by Number/String, the only producers of the kinds that have them.
  Token& Emit(Tok k, size_t start, size_t len) {
    Token& t = ring_[emitted_++ & (TokenStream::kRing - 1)];
    t.kind = k;
    t.int_overflow = false;
    t.fstring = false;
    t.text = std::string_view(s_.data() + start, len);
    t.span = SpanAt(start, len);
    return t;
  }
  static char Closer(char c) { return c == '(' ? ')' : c == '[' ? ']' : '}'; }

  // Consumes a line break at pos_ ("\n", "\r\n" or "\r") and starts a new line.
  void NewLine() {
    if (s_[pos_] == '\r' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '\n') ++pos_;
    ++pos_;
    ++line_;
    line_start_ = pos_;
  }
  bool AtLineBreak(size_t p) const { return p < s_.size() && (s_[p] == '\n' || s_[p] == '\r'); }

  bool CheckUtf8() {
    const size_t n_bytes = s_.size();
    const char* d = s_.data();
    for (size_t i = 0; i < n_bytes;) {
      // ASCII runs eight bytes at a time.
      if (i + 8 <= n_bytes) {
        uint64_t w;
        std::memcpy(&w, d + i, 8);
        if ((w & 0x8080808080808080ull) == 0) {
          i += 8;
          continue;
        }
      }
      if (static_cast<unsigned char>(d[i]) < 0x80) {
        ++i;
        continue;
      }
      size_t n = Utf8Len(s_, i);
      if (n == 0) {
        // The position is only worked out for the error (lines end at '\n').
        size_t line_start = 0;
        int line = 1;
        for (size_t k = 0; k < i; ++k)
          if (d[k] == '\n') ++line, line_start = k + 1;
        Span sp{file_, line + line_offset_, static_cast<int32_t>(i - line_start + 1), 1};
        Error(sp, fmt::format("invalid UTF-8 byte 0x{:02X}; IR text must be UTF-8",
                              static_cast<unsigned char>(s_[i])));
        return false;
      }
      i += n;
    }
    return true;
  }

  // Lexes up to kRun names, numbers and operators in a row (one call for a run
  // of them is what makes lexing cheap), stopping at a line break, the end, or
  // anything less common (which it lexes as the last thing in the step).
  void Step() {
    if (at_line_start_ && brackets_.empty() && !LineStart()) return;
    const size_t n = s_.size();
    for (int k = 0; k < kRun; ++k) {
      // Blanks between tokens are skipped here rather than in a step of their own.
      size_t p = pos_;
      while (ClassOf(s_[p]) == kCBlank) {
        if (++p >= n) {
          pos_ = p;
          return;
        }
      }
      pos_ = p;
      char c = s_[p];
      switch (ClassOf(c)) {
        case kCIdent:
          Ident();
          break;
        case kCOther:
          Operator();
          if (fatal_) return;
          break;
        case kCDigit:
          Number();
          break;
        case kCDot:
          if (p + 1 < n && IsDigit(s_[p + 1]))
            Number();
          else
            Operator();
          break;
        case kCLineBreak:
          if (brackets_.empty()) {
            Emit(Tok::kNewline, p, 1);
            at_line_start_ = true;
          }
          return NewLine();
        case kCQuote:
          return String(p, p, false);
        default:
          return Rare();
      }
      if (pos_ >= n) return;
    }
  }

  // The start of a logical line: blank and comment-only lines are consumed
  // (false: nothing more in this step), else indentation gives INDENT/DEDENTs.
  bool LineStart() {
    {
      size_t p = pos_;
      while (p < s_.size() && (s_[p] == ' ' || s_[p] == '\t' || s_[p] == '\f')) ++p;
      if (p >= s_.size()) {
        pos_ = p;
        return false;
      }
      if (s_[p] == '#' || AtLineBreak(p)) {  // blank or comment-only line
        while (p < s_.size() && !AtLineBreak(p)) ++p;
        pos_ = p;
        if (pos_ < s_.size()) NewLine();
        return false;
      }
      Indentation(s_.substr(pos_, p - pos_), p);
      pos_ = p;
      at_line_start_ = false;
      return !fatal_;
    }
  }

  // Comments, continuations and non-ASCII bytes (Step's uncommon cases).
  void Rare() {
    char c = s_[pos_];
    switch (ClassOf(c)) {
      case kCHash:
        while (pos_ < s_.size() && !AtLineBreak(pos_)) ++pos_;
        return;
      case kCBackslash:
        if (AtLineBreak(pos_ + 1)) {
          ++pos_;
          NewLine();
        } else {
          Error(SpanAt(pos_, 1), "unexpected character after line continuation character '\\'");
          ++pos_;
        }
        return;
      default:
        break;  // kCHigh
    }
    {
      size_t n = Utf8Len(s_, pos_);
      uint32_t cp = static_cast<unsigned char>(c) & (0x7F >> n);
      for (size_t k = 1; k < n; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(s_[pos_ + k]) & 0x3F);
      Error(SpanAt(pos_, n), fmt::format("unexpected character U+{:04X}; identifiers and "
                                         "operators must be ASCII",
                                         cp));
      pos_ += n;
    }
  }

  void Indentation(std::string_view ind, size_t p) {
    if (first_line_) {
      // Uniformly indented input (a class body cut out of a nested scope): the
      // first line's indentation is the module level.
      first_line_ = false;
      indents_[0] = std::string(ind);
      return;
    }
    const std::string& top = indents_.back();
    if (ind == top) return;
    if (ind.size() > top.size() && ind.substr(0, top.size()) == top) {
      indents_.emplace_back(ind);
      if (indents_.size() - 1 > static_cast<size_t>(kMaxNesting)) {
        Error(SpanAt(p, 1), fmt::format("nesting too deep (limit {})", kMaxNesting));
        fatal_ = true;
        return;
      }
      Emit(Tok::kIndent, p, 0);
      return;
    }
    if (ind.size() < top.size() && std::string_view(top).substr(0, ind.size()) == ind) {
      while (indents_.size() > 1 && indents_.back().size() > ind.size()) {
        indents_.pop_back();
        Emit(Tok::kDedent, p, 0);
      }
      if (indents_.back() != ind)
        Error(SpanAt(p, 1), "unindent does not match any outer indentation level");
      return;
    }
    Error(SpanAt(p, 1), "inconsistent use of tabs and spaces in indentation");
  }

  void Ident() {
    // Locals in the loop: pos_ is a member, and a char load may alias it.
    const char* d = s_.data();
    const size_t n = s_.size();
    const size_t start = pos_;
    size_t p = start + 1;
    while (p < n && IdentChar(d[p])) ++p;
    pos_ = p;
    std::string_view id(d + start, p - start);
    if (id.size() <= 2 && p < n && (d[p] == '"' || d[p] == '\'') && PrefixedString(start, id))
      return;
    if (id.size() == 3 && record_defs_ && id == "def") RecordDef(start);
    Emit(Tok::kName, start, p - start);
  }

  // The rare parts of Ident, out of line so the common path stays small.
  // `id` (one or two letters) followed by a quote: a string prefix (r, b, u, f
  // in any combination) lexes the string and returns true.
  [[gnu::noinline]] bool PrefixedString(size_t start, std::string_view id) {
    bool raw = false, valid = true, fmt_string = false;
    for (char ch : id) {
      char l = static_cast<char>(ch | 0x20);
      if (l == 'r')
        raw = true;
      else if (l == 'f')
        fmt_string = true;
      else if (l != 'b' && l != 'u')
        valid = false;
    }
    if (!valid) return false;
    // f-strings lex as raw strings so harness code in .py files does not stop
    // the parse; using one in the program is an error at lowering.
    size_t before = emitted_;
    String(start, pos_, raw || fmt_string);
    if (emitted_ > before) Last().fstring = fmt_string;
    return true;
  }
  // A snapshot at a `def` keyword (see RecordDefs).
  [[gnu::noinline]] void RecordDef(size_t start) {
    auto snap = std::make_shared<LexSnapshot>();
    snap->text = s_;
    snap->file = file_;
    snap->line_offset = line_offset_;
    snap->pos = start;
    snap->line_start = line_start_;
    snap->line = line_;
    snap->first_line = first_line_;
    snap->indents = indents_;
    defs_.emplace_back(emitted_, std::move(snap));
  }

  void Number() {
    size_t start = pos_;
    {
      // Fast path: a plain decimal integer (digits, then no '.', '_', exponent,
      // base letter or other identifier character).
      const size_t n = s_.size();
      size_t q = pos_;
      while (q < n && IsDigit(s_[q])) ++q;
      if (q > start && (q >= n || (!IdentChar(s_[q]) && s_[q] != '.'))) {
        uint64_t v = 0;
        bool over = false;
        for (size_t k = start; k < q; ++k) {
          uint64_t d = static_cast<uint64_t>(s_[k] - '0');
          if (v > (UINT64_MAX - d) / 10) {
            over = true;
            break;
          }
          v = v * 10 + d;
        }
        pos_ = q;
        Token& t = Emit(Tok::kInt, start, q - start);
        t.ival = v;
        t.int_overflow = over;
        return;
      }
    }
    bool is_float = false, bad = false;
    int base = 10;
    if (s_[pos_] == '0' && pos_ + 1 < s_.size()) {
      char x = static_cast<char>(s_[pos_ + 1] | 0x20);
      if (x == 'x')
        base = 16;
      else if (x == 'o')
        base = 8;
      else if (x == 'b')
        base = 2;
      if (base != 10) pos_ += 2;
    }
    std::string digits;
    auto scan_digits = [&](bool dec) {
      bool prev_us = true;  // no leading underscore
      size_t before = digits.size();
      while (pos_ < s_.size()) {
        char ch = s_[pos_];
        if (ch == '_') {
          if (prev_us) bad = true;
          prev_us = true;
          ++pos_;
          continue;
        }
        int v = dec ? (IsDigit(ch) ? ch - '0' : -1) : HexVal(ch);
        if (v < 0 || v >= (dec ? 10 : base)) break;
        digits += ch;
        prev_us = false;
        ++pos_;
      }
      if (prev_us && digits.size() > before) bad = true;  // trailing underscore
      return digits.size() > before;
    };
    if (base != 10) {
      if (!scan_digits(false)) bad = true;
    } else {
      scan_digits(true);
      if (pos_ < s_.size() && s_[pos_] == '.') {
        is_float = true;
        digits += '.';
        ++pos_;
        scan_digits(true);
      }
      if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
        size_t save = pos_;
        std::string save_d = digits;
        digits += 'e';
        ++pos_;
        if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) digits += s_[pos_++];
        if (scan_digits(true)) {
          is_float = true;
        } else {
          pos_ = save;
          digits = save_d;
          bad = true;
        }
      }
    }
    while (pos_ < s_.size() && text::IsIdentChar(s_[pos_])) {
      bad = true;
      ++pos_;
    }
    size_t len = pos_ - start;
    if (bad) {
      Error(SpanAt(start, len), fmt::format("invalid number literal '{}'", s_.substr(start, len)));
      Emit(Tok::kInt, start, len).ival = 0;
      return;
    }
    if (is_float) {
      Token& t = Emit(Tok::kFloat, start, len);
      if (digits.front() == '.') digits.insert(digits.begin(), '0');
      std::from_chars(digits.data(), digits.data() + digits.size(), t.fval);
      return;
    }
    Token& t = Emit(Tok::kInt, start, len);
    uint64_t v = 0;
    for (char ch : digits) {
      uint64_t d = static_cast<uint64_t>(HexVal(ch));
      if (v > (UINT64_MAX - d) / static_cast<uint64_t>(base)) {
        t.int_overflow = true;
        break;
      }
      v = v * static_cast<uint64_t>(base) + d;
    }
    t.ival = v;
  }

  // String literal whose prefix starts at `start` and opening quote is at `q`.
  void String(size_t start, size_t q, bool raw) {
    char quote = s_[q];
    bool triple = q + 2 < s_.size() && s_[q + 1] == quote && s_[q + 2] == quote;
    Span open = SpanAt(start, q - start + (triple ? 3 : 1));
    pos_ = q + (triple ? 3 : 1);
    if (ring_strings_.empty()) ring_strings_.resize(TokenStream::kRing);  // first string
    std::string& val = ring_strings_[emitted_ & (TokenStream::kRing - 1)];
    val.clear();
    for (;;) {
      if (pos_ >= s_.size() || (!triple && AtLineBreak(pos_))) {
        Error(open, triple ? "unterminated triple-quoted string literal"
                           : "unterminated string literal; expected a closing quote on the "
                             "same line");
        return;
      }
      char ch = s_[pos_];
      if (ch == quote &&
          (!triple || (pos_ + 2 < s_.size() && s_[pos_ + 1] == quote && s_[pos_ + 2] == quote))) {
        pos_ += triple ? 3 : 1;
        break;
      }
      if (AtLineBreak(pos_)) {
        val += '\n';
        NewLine();
        continue;
      }
      if (ch != '\\') {
        val += ch;
        ++pos_;
        continue;
      }
      // Escapes.
      if (pos_ + 1 >= s_.size()) {
        ++pos_;
        continue;
      }
      char e = s_[pos_ + 1];
      if (AtLineBreak(pos_ + 1)) {  // backslash-newline: continuation inside the string
        ++pos_;
        NewLine();
        continue;
      }
      if (raw) {
        val += '\\';
        val += e;
        pos_ += 2;
        continue;
      }
      pos_ += 2;
      switch (e) {
        case 'n':
          val += '\n';
          break;
        case 't':
          val += '\t';
          break;
        case 'r':
          val += '\r';
          break;
        case '0':
          val += '\0';
          break;
        case 'a':
          val += '\a';
          break;
        case 'b':
          val += '\b';
          break;
        case 'f':
          val += '\f';
          break;
        case 'v':
          val += '\v';
          break;
        case '\\':
          val += '\\';
          break;
        case '\'':
          val += '\'';
          break;
        case '"':
          val += '"';
          break;
        case 'x':
        case 'u': {
          size_t n = e == 'x' ? 2 : 4;
          uint32_t cp = 0;
          bool okhex = pos_ + n <= s_.size();
          for (size_t k = 0; okhex && k < n; ++k) {
            int h = HexVal(s_[pos_ + k]);
            if (h < 0)
              okhex = false;
            else
              cp = cp * 16 + static_cast<uint32_t>(h);
          }
          if (!okhex) {
            Error(SpanAt(pos_ - 2, 2),
                  fmt::format("invalid \\{} escape; expected {} hex digits", e, n));
            break;
          }
          pos_ += n;
          if (e == 'x')
            val += static_cast<char>(cp);
          else
            AppendUtf8(val, cp);
          break;
        }
        default:
          val += '\\';
          val += e;
      }
    }
    Token& t = Emit(Tok::kString, start, pos_ - start);
    t.str = val;
    t.span = open;
  }

  void Operator() {
    char c = s_[pos_];
    // Longest match among the two- and three-character operators
    //   **= //= >>= <<= ...   ** // << >> <= >= == != -> := += -= *= /= %= &= |= ^= @=
    // decided on the next two bytes (0 past the end: never part of an operator).
    char n1 = pos_ + 1 < s_.size() ? s_[pos_ + 1] : '\0';
    switch (c) {
      case '(':
      case '[':
      case '{':
        return OpenBracket(c);
      case ')':
      case ']':
      case '}':
        return CloseBracket(c);
      case ',':
      case ';':
      case '~':
        return EmitOp(1);
      case '.':
        return EmitOp(n1 == '.' && pos_ + 2 < s_.size() && s_[pos_ + 2] == '.' ? 3 : 1);
      case '=':
        return EmitOp(n1 == '=' ? 2 : 1);
      case '-':
        return EmitOp(n1 == '>' || n1 == '=' ? 2 : 1);
      case '*':
      case '/':
      case '<':
      case '>':
        if (n1 == c) return EmitOp(pos_ + 2 < s_.size() && s_[pos_ + 2] == '=' ? 3 : 2);
        return EmitOp(n1 == '=' ? 2 : 1);
      case ':':
      case '+':
      case '%':
      case '&':
      case '|':
      case '^':
      case '@':
        return EmitOp(n1 == '=' ? 2 : 1);
      case '!':
        if (n1 == '=') return EmitOp(2);
        break;
      default:
        break;
    }
    BadCharacter(c);
  }

  // The bracket and error parts of Operator, out of line (see PrefixedString).
  [[gnu::noinline]] void OpenBracket(char c) {
    Span sp = SpanAt(pos_, 1);
    brackets_.push_back({c, sp});
    if (brackets_.size() > static_cast<size_t>(kMaxNesting)) {
      Error(sp, fmt::format("nesting too deep (limit {})", kMaxNesting));
      fatal_ = true;
      return;
    }
    EmitOp(1);
  }
  [[gnu::noinline]] void CloseBracket(char c) {
    if (brackets_.empty()) {
      Error(SpanAt(pos_, 1), fmt::format("unmatched '{}'", c));
      ++pos_;
      return;
    }
    Open o = brackets_.back();
    if (Closer(o.c) != c) {
      Error(SpanAt(pos_, 1),
            fmt::format("closing '{}' does not match opening '{}' at line {} column {}; "
                        "expected '{}'",
                        c, o.c, o.span.line, o.span.col, Closer(o.c)));
    }
    brackets_.pop_back();
    EmitOp(1);
  }
  [[gnu::noinline]] void BadCharacter(char c) {
    unsigned char uc = static_cast<unsigned char>(c);
    std::string shown =
        uc >= 0x20 && uc < 0x7f ? fmt::format("'{}'", c) : fmt::format("0x{:02X}", uc);
    Error(SpanAt(pos_, 1), fmt::format("unexpected character {}", shown));
    ++pos_;
  }
  void EmitOp(size_t n) {
    Emit(Tok::kOp, pos_, n);
    pos_ += n;
  }

  std::string_view s_;
  int32_t file_;
  int line_offset_;
  DiagnosticEngine& diag_;
  std::vector<Token> ring_;
  std::vector<std::string> ring_strings_;  // decoded kString values, per ring slot (lazily)
  size_t emitted_ = 0;
  bool done_ = false;
  bool record_defs_ = false;
  std::deque<std::pair<size_t, std::shared_ptr<const LexSnapshot>>> defs_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
  bool at_line_start_ = true;
  bool first_line_ = true;
  bool ok_ = true;
  bool fatal_ = false;
  std::vector<std::string> indents_;
  std::vector<Open> brackets_;
};

TokenStream::TokenStream(std::string_view text, int32_t file, int line_offset,
                         DiagnosticEngine& diag)
    : lx_(std::make_unique<Lexer>(text, file, line_offset, diag)),
      ring_(lx_->Ring()),
      emitted_(lx_->Emitted()) {}
TokenStream::TokenStream(const LexSnapshot& snap, DiagnosticEngine& diag)
    : lx_(std::make_unique<Lexer>(snap, diag)), ring_(lx_->Ring()), emitted_(lx_->Emitted()) {}
TokenStream::~TokenStream() = default;
const Token& TokenStream::Lex(size_t idx) { return lx_->At(idx); }
bool TokenStream::Drain() { return lx_->Drain(); }
bool TokenStream::ok() const { return lx_->ok(); }
void TokenStream::RecordDefs(bool on) { lx_->RecordDefs(on); }
std::shared_ptr<const LexSnapshot> TokenStream::TakeDefSnapshot(size_t idx) {
  return lx_->TakeDefSnapshot(idx);
}
bool TokenStream::SkipBlock(size_t newline_idx, BlockEnd* end) {
  return lx_->SkipBlock(newline_idx, end);
}

}  // namespace pypto::ir::parser
