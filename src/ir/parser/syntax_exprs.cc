// The syntax parser's expression grammar: Python's precedence descent (test,
// or/and/not, comparisons, the left-associative binary levels, unary, power),
// with the fast path that parses a primary first and stops at a delimiter;
// primaries with attribute / call / subscript trailers, call arguments,
// subscripts and slices, and atoms (names, literals, tuples, lists, dicts).
// The class is declared in syntax_parser.h.
#include "syntax_parser.h"

namespace pypto::ir::parser::syntax {

PyExpr* SyntaxParser::Single() {
  try {
    PyExpr* e = TestList();
    while (Peek().Is(Tok::kNewline)) ++i_;
    if (!Peek().Is(Tok::kEof)) Fail(Peek(), "unexpected " + Describe(Peek()) + " after value");
    return ok_ ? e : nullptr;
  } catch (const SyntaxError&) {
  } catch (const FatalError&) {
  }
  return nullptr;
}

PyExpr* SyntaxParser::TestList() {
  Span sp = Peek().span;
  PyExpr* first = Test();
  if (!Peek().IsOp(",")) return first;
  PyExpr* t = Node(EK::kTuple, sp);
  t->items.push_back(first);
  SetDepth(t, first->depth);
  while (AcceptOp(",")) {
    if (EndOfTestList()) break;
    t->items.push_back(Test());
    SetDepth(t, t->items.back()->depth);
  }
  return t;
}

bool SyntaxParser::EndOfTestList() const {
  const Token& t = Peek();
  return t.Is(Tok::kNewline) || t.Is(Tok::kEof) || t.IsOp(")") || t.IsOp("]") || t.IsOp("}") ||
         t.IsOp("=") || t.IsOp(":") || t.IsOp(";");
}

// A token the precedence descent below would hand straight to Primary (no
// `not`, no unary operator in front).
bool SyntaxParser::StartsPrimary(const Token& t) {
  switch (t.kind) {
    case Tok::kInt:
    case Tok::kFloat:
    case Tok::kString:
      return true;
    case Tok::kName:
      return t.text != "not";
    case Tok::kOp:
      return t.IsOp("(") || t.IsOp("[") || t.IsOp("{") || t.IsOp("...");
    default:
      return false;
  }
}

// A token no level of the descent consumes after an operand.
bool SyntaxParser::AtDelimiter() const {
  const Token& n = Peek();
  if (n.Is(Tok::kNewline)) return true;
  if (!n.Is(Tok::kOp) || n.text.size() != 1) return false;
  switch (n.text[0]) {
    case ',':
    case ')':
    case ']':
    case '}':
    case '=':
    case ':':
      return true;
    default:
      return false;
  }
}

PyExpr* SyntaxParser::Test() {
  // Fast path: the primary is parsed first (exactly what the descent would
  // do first); when a delimiter follows it is the whole expression, else it
  // is handed down as `pending_`, taken by Power in place of its Primary.
  if (StartsPrimary(Peek())) {
    PyExpr* p = Primary();
    if (AtDelimiter()) return p;
    pending_ = p;
  }
  PyExpr* e = OrTest();
  if (Peek().IsName("if"))
    Fail(Peek(),
         "conditional expressions (`a if c else b`) are not supported; use an if "
         "statement with pl.yield_");
  return e;
}

PyExpr* SyntaxParser::OrTest() {
  PyExpr* e = AndTest();
  while (Peek().IsName("or")) {
    Span sp = Next().span;
    PyExpr* r = AndTest();
    e = Node(EK::kBoolOp, sp, e, r);
    e->str = "or";
  }
  return e;
}

PyExpr* SyntaxParser::AndTest() {
  PyExpr* e = NotTest();
  while (Peek().IsName("and")) {
    Span sp = Next().span;
    PyExpr* r = NotTest();
    e = Node(EK::kBoolOp, sp, e, r);
    e->str = "and";
  }
  return e;
}

PyExpr* SyntaxParser::NotTest() {
  if (!pending_ && Peek().IsName("not")) {
    Nest guard(this, Peek());
    Span sp = Next().span;
    PyExpr* e = Node(EK::kUnary, sp, NotTest());
    e->str = "not";
    return e;
  }
  return Comparison();
}

PyExpr* SyntaxParser::Comparison() {
  PyExpr* e = BitOr();
  int n = 0;
  for (;;) {
    const Token& t = Peek();
    std::string op;
    if (t.IsOp("<") || t.IsOp(">") || t.IsOp("==") || t.IsOp(">=") || t.IsOp("<=") || t.IsOp("!="))
      op = std::string(t.text);
    else if (t.IsName("in") || t.IsName("is") || (t.IsName("not") && Peek(1).IsName("in")))
      Fail(t, fmt::format("'{}' comparisons are not supported in IR text", t.text));
    else
      break;
    if (++n > 1)
      Fail(t, "chained comparisons (`a < b < c`) are not supported; combine them with 'and'");
    Span sp = Next().span;
    PyExpr* r = BitOr();
    e = Node(EK::kCompare, sp, e, r);
    e->str = op;
  }
  return e;
}

template <typename Sub>
PyExpr* SyntaxParser::LeftAssoc(std::initializer_list<std::string_view> ops, Sub sub) {
  PyExpr* e = (this->*sub)();
  for (;;) {
    if (!Peek().Is(Tok::kOp)) return e;
    // Cheap reject: most operator tokens here are `,` `)` `]` `=` `:`.
    switch (Peek().text[0]) {
      case '|':
      case '^':
      case '&':
      case '<':
      case '>':
      case '+':
      case '-':
      case '*':
      case '/':
      case '%':
      case '@':
        break;
      default:
        return e;
    }
    std::string_view found;
    for (std::string_view o : ops)
      if (Peek().IsOp(o)) found = o;
    if (found.empty()) return e;
    Span sp = Next().span;
    PyExpr* r = (this->*sub)();
    e = Node(EK::kBinary, sp, e, r);
    e->str = std::string(found);
  }
}

PyExpr* SyntaxParser::BitOr() { return LeftAssoc({"|"}, &SyntaxParser::BitXor); }

PyExpr* SyntaxParser::BitXor() { return LeftAssoc({"^"}, &SyntaxParser::BitAnd); }

PyExpr* SyntaxParser::BitAnd() { return LeftAssoc({"&"}, &SyntaxParser::Shift); }

PyExpr* SyntaxParser::Shift() { return LeftAssoc({"<<", ">>"}, &SyntaxParser::Arith); }

PyExpr* SyntaxParser::Arith() { return LeftAssoc({"+", "-"}, &SyntaxParser::Term); }

PyExpr* SyntaxParser::Term() {
  return LeftAssoc({"*", "/", "//", "%", "@"}, &SyntaxParser::Factor);
}

PyExpr* SyntaxParser::Factor() {
  const Token t = Peek();  // a copy: used again after the operand is parsed
  if (!pending_ && (t.IsOp("-") || t.IsOp("+") || t.IsOp("~"))) {
    Nest guard(this, t);
    Span sp = Next().span;
    // `-5` / `-1.5` fold into negative literals (the printer relies on it).
    if (t.IsOp("-") && (Peek().Is(Tok::kInt) || Peek().Is(Tok::kFloat)) && !Peek(1).IsOp("**") &&
        !Peek(1).IsOp(".") && !Peek(1).IsOp("(") && !Peek(1).IsOp("[")) {
      PyExpr* lit = Atom();
      lit->span = sp;
      if (lit->kind == EK::kInt)
        lit->neg = !lit->neg;
      else
        lit->fval = -lit->fval;
      return lit;
    }
    PyExpr* e = Node(EK::kUnary, sp, Factor());
    e->str = std::string(t.text);
    return e;
  }
  return Power();
}

PyExpr* SyntaxParser::Power() {
  PyExpr* e = pending_ ? std::exchange(pending_, nullptr) : Primary();
  if (Peek().IsOp("**")) {
    Nest guard(this, Peek());
    Span sp = Next().span;
    PyExpr* r = Factor();
    e = Node(EK::kBinary, sp, e, r);
    e->str = "**";
  }
  return e;
}

PyExpr* SyntaxParser::Primary() {
  PyExpr* e = Atom();
  for (;;) {
    const Token& t = Peek();
    // Most primaries end at a delimiter: one test for all three trailers.
    if (!t.Is(Tok::kOp) || t.text.size() != 1 ||
        (t.text[0] != '.' && t.text[0] != '(' && t.text[0] != '['))
      return e;
    if (t.IsOp(".")) {
      Next();
      const Token& n = Peek();
      if (!n.Is(Tok::kName))
        Fail(n, fmt::format("expected an attribute name after '.', found {}", Describe(n)));
      Next();
      e = Node(EK::kAttr, e->span, e);
      e->str = std::string(n.text);
    } else if (t.IsOp("(")) {
      Next();
      PyExpr* call = Node(EK::kCall, e->span, e);
      CallArgs(call);
      e = call;
    } else if (t.IsOp("[")) {
      Next();
      PyExpr* idx = SubscriptList();
      ExpectOp("]", "to close the subscript");
      e = Node(EK::kSubscript, e->span, e, idx);
    } else {
      return e;
    }
  }
}

void SyntaxParser::CallArgs(PyExpr* call) {
  while (!Peek().IsOp(")")) {
    if (Peek().Is(Tok::kName) && Peek(1).IsOp("=") && !text::IsPythonKeyword(Peek().text)) {
      Keyword kw;
      kw.name = std::string(Peek().text);
      kw.span = Next().span;
      Next();  // '='
      kw.value = Test();
      SetDepth(call, kw.value->depth);
      for (const Keyword& k : call->kwargs)
        if (k.name == kw.name)
          Fail(ts_.At(i_ - 1), fmt::format("keyword argument '{}' repeated", kw.name));
      call->kwargs.push_back(kw);
    } else if (Peek().IsOp("**") || Peek().IsOp("*")) {
      Fail(Peek(), "argument unpacking ('*' / '**') is not supported in IR text");
    } else {
      if (!call->kwargs.empty()) Fail(Peek(), "positional argument follows keyword argument");
      PyExpr* a = Test();
      if (Peek().IsOp(":=")) Fail(Peek(), "assignment expressions (':=') are not supported");
      SetDepth(call, a->depth);
      call->items.push_back(a);
    }
    if (!AcceptOp(",")) break;
  }
  ExpectOp(")", "to close the argument list");
}

PyExpr* SyntaxParser::SubscriptList() {
  Span sp = Peek().span;
  PyExpr* first = SubscriptItem();
  if (!Peek().IsOp(",")) return first;
  PyExpr* t = Node(EK::kTuple, sp);
  t->items.push_back(first);
  SetDepth(t, first->depth);
  while (AcceptOp(",")) {
    if (Peek().IsOp("]")) break;
    t->items.push_back(SubscriptItem());
    SetDepth(t, t->items.back()->depth);
  }
  return t;
}

PyExpr* SyntaxParser::SubscriptItem() {
  Span sp = Peek().span;
  PyExpr* lo = nullptr;
  if (!Peek().IsOp(":")) lo = Test();
  if (!Peek().IsOp(":")) return lo;
  Next();
  PyExpr* s = Node(EK::kSlice, sp, lo);
  if (!Peek().IsOp(":") && !Peek().IsOp(",") && !Peek().IsOp("]")) s->b = Test();
  if (AcceptOp(":") && !Peek().IsOp(",") && !Peek().IsOp("]")) s->c = Test();
  return s;
}

PyExpr* SyntaxParser::Atom() {
  const Token& t = Peek();
  switch (t.kind) {
    case Tok::kName: {
      if (text::IsPythonKeyword(t.text)) {
        if (t.text == "True" || t.text == "False") {
          PyExpr* e = Node(EK::kBool, Next().span);
          e->bval = t.text == "True";
          return e;
        }
        if (t.text == "None") return Node(EK::kNone, Next().span);
        Fail(t, fmt::format("unexpected keyword '{}' in an expression", t.text));
      }
      PyExpr* e = Node(EK::kName, Next().span);
      e->str = std::string(t.text);
      return e;
    }
    case Tok::kInt: {
      PyExpr* e = Node(EK::kInt, Next().span);
      e->ival = t.ival;
      e->overflow = t.int_overflow;
      return e;
    }
    case Tok::kFloat: {
      PyExpr* e = Node(EK::kFloat, Next().span);
      e->fval = t.fval;
      return e;
    }
    case Tok::kString: {
      PyExpr* e = Node(EK::kString, Next().span);
      e->str = t.str;
      e->fstring = t.fstring;
      while (Peek().Is(Tok::kString)) e->str += Next().str;  // implicit concatenation
      return e;
    }
    case Tok::kOp:
      break;
    default:
      Fail(t, fmt::format("expected an expression, found {}", Describe(t)));
  }
  if (t.IsOp("(")) {
    Span sp = Next().span;
    if (AcceptOp(")")) return Node(EK::kTuple, sp);
    PyExpr* first = Test();
    if (AcceptOp(")")) {
      first->parenthesized = true;
      return first;
    }
    if (!Peek().IsOp(","))
      Fail(Peek(), fmt::format("expected ')' or ',' in parentheses, found {}", Describe(Peek())));
    PyExpr* tup = Node(EK::kTuple, sp);
    tup->items.push_back(first);
    SetDepth(tup, first->depth);
    while (AcceptOp(",")) {
      if (Peek().IsOp(")")) break;
      tup->items.push_back(Test());
      SetDepth(tup, tup->items.back()->depth);
    }
    ExpectOp(")", "to close the tuple");
    tup->parenthesized = true;
    return tup;
  }
  if (t.IsOp("[")) {
    Span sp = Next().span;
    PyExpr* l = Node(EK::kList, sp);
    while (!Peek().IsOp("]")) {
      l->items.push_back(Test());
      SetDepth(l, l->items.back()->depth);
      if (Peek().IsName("for")) Fail(Peek(), "list comprehensions are not supported");
      if (!AcceptOp(",")) break;
    }
    ExpectOp("]", "to close the list");
    return l;
  }
  if (t.IsOp("{")) {
    Span sp = Next().span;
    PyExpr* d = Node(EK::kDict, sp);
    while (!Peek().IsOp("}")) {
      d->items.push_back(Test());
      ExpectOp(":", "between a dict key and its value");
      d->values.push_back(Test());
      SetDepth(d, std::max(d->items.back()->depth, d->values.back()->depth));
      if (!AcceptOp(",")) break;
    }
    ExpectOp("}", "to close the dict");
    return d;
  }
  if (t.IsOp("...")) return Node(EK::kEllipsis, Next().span);
  Fail(t, fmt::format("expected an expression, found {}", Describe(t)));
}

}  // namespace pypto::ir::parser::syntax
