// PLACEHOLDER: RemoteLoadStore op registrations (to be written).
#include "pypto/ir/op_registry.h"

namespace pypto::ir {

void RegisterRemoteLoadStoreOps(OpRegistry& r) { (void)r; }

}  // namespace pypto::ir
