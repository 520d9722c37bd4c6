// Factories of every implemented pass (registered by name in pipelines.cc). Each
// lives in its own src/passes/<name>.cc; their contracts are in docs/passes.md.
#pragma once

#include <memory>

#include "pypto/passes/pass.h"

namespace pypto::passes {

std::unique_ptr<Pass> CreateOutlineIncoreScopesPass();
std::unique_ptr<Pass> CreateConvertToSSAPass();
std::unique_ptr<Pass> CreateSimplifyPass();
std::unique_ptr<Pass> CreateConvertTensorToTileOpsPass();
std::unique_ptr<Pass> CreateFlattenTileNdTo2DPass();
std::unique_ptr<Pass> CreateInferTileMemorySpacePass();
std::unique_ptr<Pass> CreateExpandMixedKernelPass();
std::unique_ptr<Pass> CreateMaterializeDistTensorCtxPass();
std::unique_ptr<Pass> CreateInsertCommFencePass();
std::unique_ptr<Pass> CreateLowerCompositeOpsPass();
std::unique_ptr<Pass> CreateSynthesizeAllReduceSignalsPass();
std::unique_ptr<Pass> CreateMaterializeCommDomainScopesPass();
std::unique_ptr<Pass> CreateLowerHostTensorCollectivesPass();
std::unique_ptr<Pass> CreateLowerL2TensorCollectivesPass();
std::unique_ptr<Pass> CreateLowerAutoVectorSplitPass();
std::unique_ptr<Pass> CreateEliminateEarlyReturnsPass();
std::unique_ptr<Pass> CreateFlattenCallArgsPass();

}  // namespace pypto::passes
