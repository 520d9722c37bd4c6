// Pieces shared by the InCore lowerings of the data collectives (broadcast,
// reduce_scatter, allgather, all_to_all, all_to_all_v) in lower-composite-ops.
// Each moves rows of a packed row-major window through UB, so
//  * its data operands must be packed, fully valid ND views (CheckRowOperand;
//    anything else is an error at the call saying what would work);
//  * a row of SIZE elements (static or a dynamic dim, bound at run time from the
//    tensor parameter) moves in column chunks of at most 16 KiB (RowChunk,
//    ForColumnChunks), so any size fits UB; the last chunk keeps the physical
//    chunk width and narrows only its valid extent.
#pragma once

#include <functional>
#include <string>

#include "pypto/core/diagnostics.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/expr.h"

namespace pypto::passes {

// Bytes of one UB chunk.
constexpr int64_t kCollectiveChunkBytes = 16 * 1024;

// False (with an error at `span`) unless argument `arg` of the collective
// `call` is a packed, fully valid ND view.
bool CheckRowOperand(ir::Context& ctx, const ir::Call& call, size_t arg, Span span,
                     DiagnosticEngine& diag);

// Elements per chunk of a row of `size` elements: 16 KiB, shrunk to the smallest
// 32-byte multiple covering a static row smaller than that.
int64_t RowChunk(const ir::Expr* size, DataType dt);
// The same for a row of a known static size.
int64_t RowChunk(int64_t size, DataType dt);

// The product of `dims` (an INDEX expression, folded when static).
const ir::Expr* ElemCount(ir::IRBuilder& b, const std::vector<const ir::Expr*>& dims);

// for <name>_col in range(0, size, chunk):
//   <name>_valid = min(chunk, size - <name>_col); body(col, valid)
void ForColumnChunks(ir::IRBuilder& b, const std::string& name, const ir::Expr* size, int64_t chunk,
                     const std::function<void(const ir::Var* col, const ir::Var* valid)>& body);

}  // namespace pypto::passes
