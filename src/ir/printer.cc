// PLACEHOLDER printer (to be replaced by the real one).
#include "pypto/ir/printer.h"

namespace pypto::ir {
std::string TypeToString(const Type*) { return "<type>"; }
}  // namespace pypto::ir
