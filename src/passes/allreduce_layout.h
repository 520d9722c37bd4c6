// How an InCore pld.tensor.allreduce addresses its target, decided before it is
// lowered (the seed's rules; lower-composite-ops builds the protocol on top):
//  * mesh, fully valid: one logical [1, N] stream (N = prod(shape), a run-time
//    expression when a dim is dynamic), reduced in UB chunks of C elements:
//    16 KiB / element, shrunk to the smallest 32-byte multiple >= N when N is
//    static and smaller;
//  * mesh, partially valid: the leading dims collapse to one 2-D rectangle
//    [prod(leading), last] whose valid box is [rows, cols]; it is reduced as one
//    UB tile of a static shape (each static valid extent, 32-byte rounded along
//    the row, or the physical extent where the valid one is symbolic) that must
//    fit one 16 KiB chunk;
//  * ring: the physical [1, prod(shape)] stream; a partial valid box must be a
//    contiguous row-major prefix, whose length prod(valid_shape) is the logical
//    size the ring reduces.
// A target the lowering cannot address (strided, not ND, a valid box that is no
// rectangle / no prefix, a rectangle over 16 KiB or not statically bounded) is an
// error at the call saying what, why and what would work.
#pragma once

#include <optional>

#include "pypto/core/diagnostics.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/expr.h"
#include "pypto/ir/op_utils.h"

namespace pypto::passes {

struct MeshTarget {
  ir::Shape view;  // the 2-D shape the target is viewed as ([1, N] or [R, C])
  bool stream = true;
  // stream: N elements in chunks of `chunk`.
  const ir::Expr* total = nullptr;
  int64_t chunk = 0;
  // rectangle: the static UB tile and the logical valid box.
  int64_t tile_rows = 0, tile_cols = 0;
  const ir::Expr* valid_rows = nullptr;
  const ir::Expr* valid_cols = nullptr;
};

struct RingTarget {
  const ir::Expr* size = nullptr;   // physical prod(shape)
  const ir::Expr* valid = nullptr;  // logical prefix prod(valid_shape); == size when fully valid
  bool partial = false;
};

// The mesh / ring addressing of `call`'s target (arg 0), or nullopt after an
// error at `span`. Expressions are built (and folded) with `b`.
std::optional<MeshTarget> PlanMeshTarget(ir::IRBuilder& b, const ir::Call& call, Span span,
                                         DiagnosticEngine& diag);
std::optional<RingTarget> PlanRingTarget(ir::IRBuilder& b, const ir::Call& call, Span span,
                                         DiagnosticEngine& diag);

}  // namespace pypto::passes
