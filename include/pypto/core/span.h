// Source positions. A Span names a file (interned in the SourceManager) and a
// 1-based line/column range start; IR nodes carry one so every diagnostic can
// point at the user's text. Spans never take part in structural equality.
#pragma once

#include <cstdint>

namespace pypto {

struct Span {
  int32_t file = -1;   // index into SourceManager; -1 = unknown
  int32_t line = 0;    // 1-based; 0 = unknown
  int32_t col = 0;     // 1-based
  int32_t length = 1;  // columns covered on the first line (for carets)

  bool IsKnown() const { return file >= 0 && line > 0; }
};

}  // namespace pypto
