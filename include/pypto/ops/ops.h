// Op handles: the stable identity of every registered op, generated from
// op_list.def. Passes, the emitter and the executor name an op by its handle
// (`call->Is(ops::kTileStore)`, `b.Op(ops::kPldNotify, ...)`, tables indexed by
// `handle.id`), never by its text name; names live only at the text boundary
// (parser, printer, diagnostics, Python stubs).
//
// Handles are constexpr and dense (0 .. kOpCount-1, in op_list.def order), so a
// per-op table is a std::array<T, kOpCount> and a coverage test can walk every
// op. The ir layer only knows the OpHandle type; which ops exist is this
// layer's business.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pypto/ir/op_registry.h"

namespace pypto::ops {

namespace detail {
enum Ordinal : uint16_t {
#define PYPTO_OP(H, name) k##H,
#define PYPTO_ELEMENTWISE(N, name, what, sop) kTensor##N, kTile##N,
#define PYPTO_ELEMENTWISE_SCALAR(N, name, B, what) kTensor##N, kTile##N,
#include "pypto/ops/op_list.def"
  kOrdinalCount
};
}  // namespace detail

#define PYPTO_OP(H, name) inline constexpr ir::OpHandle k##H{detail::k##H};
#define PYPTO_ELEMENTWISE(N, name, what, sop)                   \
  inline constexpr ir::OpHandle kTensor##N{detail::kTensor##N}; \
  inline constexpr ir::OpHandle kTile##N{detail::kTile##N};
#define PYPTO_ELEMENTWISE_SCALAR(N, name, B, what) PYPTO_ELEMENTWISE(N, name, what, _)
#include "pypto/ops/op_list.def"

inline constexpr size_t kOpCount = detail::kOrdinalCount;

// Canonical text name of every op, indexed by handle id (the registration and
// diagnostics use it; code that decides anything compares handles).
inline constexpr std::array<std::string_view, kOpCount> kOpNames = {
#define PYPTO_OP(H, name) name,
#define PYPTO_ELEMENTWISE(N, name, what, sop) "tensor." #name, "tile." #name,
#define PYPTO_ELEMENTWISE_SCALAR(N, name, B, what) "tensor." #name, "tile." #name,
#include "pypto/ops/op_list.def"
};

// The process-wide registry with every op of this layer registered (the same
// object as ir::OpRegistry::Global()).
const ir::OpRegistry& Registry();

// The registered definition of `h`.
inline const ir::OpDef& Get(ir::OpHandle h) { return Registry().Get(h); }

}  // namespace pypto::ops
