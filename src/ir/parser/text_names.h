// Spelling facts shared by the IR printer and the parser: which identifiers are
// reserved (Python keywords and the names the text format binds itself: pl, pld,
// self), the canonical printed name of an op, and the float-literal format that
// re-parses to the exact same double. Keeping these in one place is what makes
// print -> parse -> print byte-identical.
#pragma once

#include <string>
#include <string_view>

namespace pypto::ir::text {

// Dispatched on length (every name is checked, on both the parse and the
// print path, so this must not scan the whole list).
inline bool IsPythonKeyword(std::string_view s) {
  switch (s.size()) {
    case 2:
      return s == "as" || s == "if" || s == "in" || s == "is" || s == "or";
    case 3:
      return s == "and" || s == "def" || s == "del" || s == "for" || s == "not" || s == "try";
    case 4:
      return s == "None" || s == "True" || s == "elif" || s == "else" || s == "from" ||
             s == "pass" || s == "with";
    case 5:
      return s == "False" || s == "async" || s == "await" || s == "break" || s == "class" ||
             s == "raise" || s == "while" || s == "yield";
    case 6:
      return s == "assert" || s == "except" || s == "global" || s == "import" ||
             s == "lambda" || s == "return";
    case 7:
      return s == "finally";
    case 8:
      return s == "continue" || s == "nonlocal";
    default:
      return false;
  }
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
