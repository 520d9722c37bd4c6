// Small helpers shared by the op-semantics files of the executor (new tensors
// and tiles, element-wise application over valid regions, reductions).
#pragma once

#include <cmath>
#include <memory>
#include <vector>

#include "pypto/ir/op_handle.h"
#include "pypto/sim/value.h"

namespace pypto::sim {

// A fresh packed host tensor (zeroed).
std::shared_ptr<TensorVal> NewHostTensor(DataType dt, const std::vector<int64_t>& shape,
                                         const std::string& name = "");
std::vector<int64_t> PackedStrides(const std::vector<int64_t>& shape);
std::shared_ptr<TileVal> NewTile(DataType dt, const std::vector<int64_t>& shape);

// Binary element-wise kinds shared by the element kernels and the collectives.
enum class ElemOp { kAdd, kSub, kMul, kDiv, kMax, kMin };
inline double ApplyElem(ElemOp op, double a, double b) {
  switch (op) {
    case ElemOp::kAdd:
      return a + b;
    case ElemOp::kSub:
      return a - b;
    case ElemOp::kMul:
      return a * b;
    case ElemOp::kDiv:
      return a / b;
    case ElemOp::kMax:
      return std::isnan(a) || std::isnan(b) ? NAN : (a > b ? a : b);
    case ElemOp::kMin:
      return std::isnan(a) || std::isnan(b) ? NAN : (a < b ? a : b);
  }
  return 0;
}

// An element kernel of the element-wise family: one result element of dtype
// `dt`, rounded once (an integer division by zero sets *div_zero).
using ElemFn = double (*)(DataType dt, double a, double b, bool* div_zero);

// The element kernel of an element-wise tile op or its scalar twin (tile.add and
// tile.adds share one), declared once per family member in semantics/tile.cc;
// nullptr for any other op. A tensor form runs the kernel of its tile twin.
ElemFn ElementwiseKernel(ir::OpHandle tile_op);

}  // namespace pypto::sim

namespace pypto::ir {
struct Call;
}

namespace pypto::sim {
class Exec;
struct Domain;
struct Rendezvous;
// Under a transport (semantics/collective_rendezvous.cc): fills `rz` with every
// domain rank's arrival at collective `seq` (op, position, operands), blocking
// until all arrived; ExchangeCompletion blocks until every rank finished it.
void ExchangeArrivals(Exec& ex, const ir::Call& call, const std::vector<Value>& args,
                      const Domain& d, int64_t seq, Rendezvous* rz);
void ExchangeCompletion(Exec& ex, const ir::Call& call, const Domain& d, int64_t seq);
// Loads box [off, off+valid) of `t` (rank `device`'s copy for windows) into a
// tile of `shape`; valid is intersected with the tensor's valid region.
std::shared_ptr<TileVal> LoadTile(Exec& ex, const TensorVal& t, int device,
                                  const std::vector<int64_t>& off,
                                  const std::vector<int64_t>& shape, std::vector<int64_t> valid,
                                  const char* role);
// The 2-D row-major form of an N-D tile (tile_2d=True loads): shape and valid
// merged to [prod(leading), last]; fails when the valid box is not a run of
// whole rows of the 2-D tile.
void FlattenTileTo2D(Exec& ex, TileVal& tile);
// Stores the tile's valid region (clipped to `ext` when given) at `off`. A 2-D
// tile with an N-D `ext` (a flattened tile) is first viewed as an `ext`-shaped
// tile, its valid rows un-merged over ext's leading dims.
void StoreTile(Exec& ex, const TileVal& tile, const TensorVal& t, int device,
               const std::vector<int64_t>& off, std::vector<int64_t> ext, bool atomic,
               const char* role);
}  // namespace pypto::sim
