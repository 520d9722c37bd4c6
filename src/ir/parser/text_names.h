// Spelling facts shared by the IR printer and the parser: which identifiers are
// reserved (Python keywords and the names the text format binds itself: pl, pld,
// self), the canonical printed name of an op, and the float-literal format that
// re-parses to the exact same double. Keeping these in one place is what makes
// print -> parse -> print byte-identical.
#pragma once

#include <string>
#include <string_view>

namespace pypto::ir::text {

inline bool IsPythonKeyword(std::string_view s) {
  static constexpr std::string_view kKeywords[] = {
      "False", "None",   "True",    "and",      "as",     "assert", "async",  "await",
      "break", "class",  "continue", "def",     "del",    "elif",   "else",   "except",
      "finally", "for",  "from",    "global",   "if",     "import", "in",     "is",
      "lambda", "nonlocal", "not",  "or",       "pass",   "raise",  "return", "try",
      "while", "with",   "yield"};
  if (s.size() < 2 || s.size() > 8) return false;
  for (std::string_view k : kKeywords)
    if (k[0] == s[0] && k == s) return true;
  return false;
}

// Names a Var may not print as: keywords and the module/receiver names.
inline bool IsReservedName(std::string_view s) {
  return IsPythonKeyword(s) || s == "pl" || s == "pld" || s == "self";
}

inline bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool IsIdentChar(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }

// "tile.load" -> "pl.tile.load"; "pld.system.notify" stays; builtins get "pl.".
inline std::string PrintedOpName(std::string_view op) {
  if (op.substr(0, 4) == "pld.") return std::string(op);
  return "pl." + std::string(op);
}

// Shortest decimal that parses back to exactly `v`, always containing '.' or an
// exponent so it lexes as a float; non-finite values use float("...").
std::string FormatFloat(double v);

// Double-quoted string literal with Python escapes.
std::string QuoteString(std::string_view s);

}  // namespace pypto::ir::text
