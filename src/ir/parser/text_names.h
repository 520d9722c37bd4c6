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
  // Decided on length and first byte (every name token is asked this), then
  // at most two full compares.
  auto is = [&s](std::string_view k) { return s == k; };
  if (s.size() < 2 || s.size() > 8) return false;
  switch (s.size()) {
    case 2:
      switch (s[0]) {
        case 'a':
          return s[1] == 's';
        case 'i':
          return s[1] == 'f' || s[1] == 'n' || s[1] == 's';
        case 'o':
          return s[1] == 'r';
        default:
          return false;
      }
    case 3:
      switch (s[0]) {
        case 'a':
          return is("and");
        case 'd':
          return is("def") || is("del");
        case 'f':
          return is("for");
        case 'n':
          return is("not");
        case 't':
          return is("try");
        default:
          return false;
      }
    case 4:
      switch (s[0]) {
        case 'N':
          return is("None");
        case 'T':
          return is("True");
        case 'e':
          return is("elif") || is("else");
        case 'f':
          return is("from");
        case 'p':
          return is("pass");
        case 'w':
          return is("with");
        default:
          return false;
      }
    case 5:
      switch (s[0]) {
        case 'F':
          return is("False");
        case 'a':
          return is("async") || is("await");
        case 'b':
          return is("break");
        case 'c':
          return is("class");
        case 'r':
          return is("raise");
        case 'w':
          return is("while");
        case 'y':
          return is("yield");
        default:
          return false;
      }
    case 6:
      switch (s[0]) {
        case 'a':
          return is("assert");
        case 'e':
          return is("except");
        case 'g':
          return is("global");
        case 'i':
          return is("import");
        case 'l':
          return is("lambda");
        case 'r':
          return is("return");
        default:
          return false;
      }
    case 7:
      return is("finally");
    default:
      return is("continue") || is("nonlocal");
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
