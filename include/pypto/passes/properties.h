// IR properties: facts about a program that passes require, produce and
// invalidate (SSA form, kernels outlined, tile ops 2-D, comm ctx threaded, ...).
// The pass manager tracks the set that holds between passes and refuses to run a
// pass whose requirements are not met, naming the pass that would produce them.
// Some properties can be detected on any program (DetectProperties); the others
// are only known because a pass produced them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pypto/ir/program.h"

namespace pypto::passes {

#define PYPTO_IR_PROPERTIES(X)                                                          \
  X(kTypeChecked, "TypeChecked")                 /* VerifyProgram accepted it */        \
  X(kSSAForm, "SSAForm")                         /* every Var assigned once */          \
  X(kSplitIncoreOrch, "SplitIncoreOrch")         /* no InCore scopes left (outlined) */ \
  X(kIncoreTileOps, "IncoreTileOps")             /* kernels compute on tiles */         \
  X(kCompositeOpsLowered, "CompositeOpsLowered") /* InCore collectives lowered */       \
  X(kTileOps2D, "TileOps2D")                     /* every kernel tile is rank <= 2 */   \
  X(kTileMemoryInferred, "TileMemoryInferred")   /* every tile has a memory space */    \
  X(kAutoVectorSplitLowered, "AutoVectorSplitLowered")                                  \
  X(kMixedKernelExpanded, "MixedKernelExpanded") /* InCore -> AIC/AIV/Group */          \
  X(kAllReduceSignalsSynthesized, "AllReduceSignalsSynthesized")                        \
  X(kCommDomainScopesMaterialized, "CommDomainScopesMaterialized")                      \
  X(kHostCollectivesLowered, "HostCollectivesLowered")                                  \
  X(kL2CollectivesLowered, "L2CollectivesLowered")                                      \
  X(kDistTensorCtxMaterialized, "DistTensorCtxMaterialized")                            \
  X(kCommFenced, "CommFenced")

enum class IRProperty : uint8_t {
#define PYPTO_X(e, n) e,
  PYPTO_IR_PROPERTIES(PYPTO_X)
#undef PYPTO_X
      kCount
};

std::string_view PropertyName(IRProperty p);

// A small bitset of IRProperty.
class PropertySet {
 public:
  constexpr PropertySet() = default;
  constexpr PropertySet(std::initializer_list<IRProperty> ps) {
    for (IRProperty p : ps) bits_ |= Bit(p);
  }
  constexpr bool Has(IRProperty p) const { return (bits_ & Bit(p)) != 0; }
  constexpr void Add(IRProperty p) { bits_ |= Bit(p); }
  constexpr PropertySet& operator|=(PropertySet o) {
    bits_ |= o.bits_;
    return *this;
  }
  constexpr PropertySet Without(PropertySet o) const {
    PropertySet r;
    r.bits_ = bits_ & ~o.bits_;
    return r;
  }
  constexpr bool operator==(const PropertySet& o) const { return bits_ == o.bits_; }
  // "SSAForm, TileOps2D" ("none" when empty).
  std::string ToString() const;
  template <typename F>
  void ForEach(F&& f) const {
    for (int i = 0; i < static_cast<int>(IRProperty::kCount); ++i)
      if (bits_ & (uint32_t{1} << i)) f(static_cast<IRProperty>(i));
  }

 private:
  static constexpr uint32_t Bit(IRProperty p) { return uint32_t{1} << static_cast<int>(p); }
  uint32_t bits_ = 0;
};

// Whether `p` has a structural detector (CheckProperty can decide it).
bool IsDetectable(IRProperty p);
// Decides a detectable property on `prog`. When it does not hold and `why` is
// given, it receives the first offending place ("function 'k': x assigned twice").
// Non-detectable properties return false.
bool CheckProperty(const ir::Program& prog, IRProperty p, std::string* why = nullptr);
// Every detectable property that holds on `prog` (TypeChecked is not included:
// the caller adds it after VerifyProgram succeeded).
PropertySet DetectProperties(const ir::Program& prog);

}  // namespace pypto::passes
