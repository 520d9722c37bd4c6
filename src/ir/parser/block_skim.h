// Byte-level skim over an indented block: where the block under a compound
// statement's header ends, found without lexing it. The parser's fast first
// pass steps over every function body this way (TokenStream::SkipBlock) and
// parses each body once, later, when it is lowered. The skim tracks exactly what
// decides where a logical line ends (strings incl. triple-quoted ones, comments,
// brackets, backslash continuations, blank lines) and gives up on anything the
// lexer could report (unterminated strings or brackets, stray continuations,
// mixed tabs/spaces at the dedent), so it never has to be right about bad input.
#pragma once

#include <cstddef>
#include <string_view>

namespace pypto::ir::parser {

// A lexer position at the start of a physical line (line_start == pos).
struct SkimState {
  size_t pos = 0;
  size_t line_start = 0;
  int line = 1;
};

// `*at` is the start of the line after a block header whose indentation level
// is `top`. On success *at becomes the start of the first logical line indented
// no deeper than `top` (or the end of the text, with the line state the lexer
// would have there) and *first_token the offset of its first non-blank byte
// (where the lexer emits the DEDENTs); false, *at unchanged, when the block is
// missing or not plainly well-formed. Reads only inside `s`.
bool SkimBlock(std::string_view s, std::string_view top, SkimState* at, size_t* first_token);

}  // namespace pypto::ir::parser
