// PtoWriter: indentation-aware line writer (see include/pypto/codegen/pto_writer.h).
#include "pypto/codegen/pto_writer.h"

namespace pypto::codegen {

void PtoWriter::Line(std::string_view text) {
  buf_.append(static_cast<size_t>(indent_) * 2, ' ');
  buf_.append(text);
  buf_.push_back('\n');
}

}  // namespace pypto::codegen
