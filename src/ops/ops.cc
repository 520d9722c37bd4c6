// The ops layer fills the registry: FillOpRegistry (declared in
// pypto/ir/op_registry.h, called once by OpRegistry::Global() on first use)
// registers every op of op_list.def, checks each has a deducer and is
// registered under its own name, and links the declared twins both ways.
#include "pypto/ops/ops.h"

#include <fmt/format.h>

#include "pypto/core/check.h"
#include "register_op.h"

namespace pypto::ir {

void FillOpRegistry(OpRegistry& r) {
  RegisterTensorOps(r);
  RegisterTileOps(r);
  RegisterSystemOps(r);
  RegisterBuiltinOps(r);
  RegisterWindowOps(r);
  RegisterSignalOps(r);
  RegisterRemoteLoadStoreOps(r);
  RegisterPutGetOps(r);
  RegisterCollectiveOps(r);
  RegisterArrayOps(r);
  RegisterCubeOps(r);
  for (const OpDef* def : r.All())
    PYPTO_CHECK(static_cast<bool>(def->deduce), "op " + def->name + " has no deducer");
  r.Link();
  for (size_t i = 0; i < ops::kOpCount; ++i) {
    OpHandle h{static_cast<uint16_t>(i)};
    PYPTO_CHECK(r.Has(h) && r.Get(h).name == ops::kOpNames[i],
                fmt::format("op_list.def entry {} ({}) is not registered under its name", i,
                            ops::kOpNames[i]));
  }
  PYPTO_CHECK(r.size() == ops::kOpCount, "an op is registered that op_list.def does not list");
}

}  // namespace pypto::ir

namespace pypto::ops {

const ir::OpRegistry& Registry() { return ir::OpRegistry::Global(); }

}  // namespace pypto::ops
