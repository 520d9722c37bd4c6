// PLACEHOLDER: System op registrations (to be written).
#include "pypto/ir/op_registry.h"

namespace pypto::ir {

void RegisterSystemOps(OpRegistry& r) { (void)r; }

}  // namespace pypto::ir
