// Private to src/ops: registers an op by its handle under the canonical name
// op_list.def gives it, so the name is written once, in the list; and the
// registration entry points, one per ops file (called by FillOpRegistry).
#pragma once

#include <string>

#include "pypto/ops/ops.h"

namespace pypto::ir {

void RegisterTensorOps(OpRegistry& r);
void RegisterTileOps(OpRegistry& r);
void RegisterSystemOps(OpRegistry& r);
void RegisterBuiltinOps(OpRegistry& r);
void RegisterWindowOps(OpRegistry& r);
void RegisterSignalOps(OpRegistry& r);
void RegisterRemoteLoadStoreOps(OpRegistry& r);
void RegisterPutGetOps(OpRegistry& r);
void RegisterCollectiveOps(OpRegistry& r);
void RegisterArrayOps(OpRegistry& r);  // src/ops/array_ops.cc
void RegisterCubeOps(OpRegistry& r);   // src/ops/cube_ops.cc

}  // namespace pypto::ir

namespace pypto::ops {

inline ir::OpBuilder RegisterOp(ir::OpRegistry& r, ir::OpHandle h) {
  return r.Register(h, std::string(kOpNames[h.id]));
}

// The scalar twin op_list.def declares for the element-wise member `binary`
// (tensor or tile form); unset when it has none.
constexpr ir::OpHandle ScalarTwinOf(ir::OpHandle binary) {
#define PYPTO_ELEMENTWISE_SCALAR(N, name, B, what) \
  if (binary == kTensor##B) return kTensor##N;     \
  if (binary == kTile##B) return kTile##N;
#include "pypto/ops/op_list.def"
  return {};
}

}  // namespace pypto::ops
