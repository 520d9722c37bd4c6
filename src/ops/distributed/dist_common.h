// Private helpers shared by the distributed ("pld") op deducers in this
// directory and by src/ops/builtins.cc: the argument-kind checks every cross-rank
// op repeats (window-bound DistributedTensor, rank-index scalar, offsets tuple of
// the target's rank), ABI-enum kwarg reading with range checks, the atomic-add
// dtype allow-list, the flattened-transfer checks put/get share, and the signal
// checks the collectives share.
//
// Every check reports through the DeduceContext so the message reads
// `<op>: argument '<name>' <what is wrong>; <what would be right>` at the
// argument's line:col, and returns nullptr/false after reporting. Checks take
// the argument's *name* explicitly because pld.tile.put/get have several arities
// (4/5/7/8 args) and the same position means different arguments in each.
//
// Static-only policy: a rule about sizes (bounds, positivity, equality) is
// enforced when the dims involved are ConstInt; symbolic dims are accepted (they
// are bounded at run time by the chunk / the partition view), except where the
// spec requires a provable fact (leading-1 dims of remote_store's src).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pypto/ir/casting.h"
#include "pypto/ir/comm.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/op_utils.h"

namespace pypto::ir::dist {

// General helpers (StaticInt, DimEqual, ShapeStr, DimStr, DTypeStr) come from
// pypto/ir/op_utils.h; these are the distributed-specific ones.

// ---- spelling ---------------------------------------------------------------
std::string Ty(const Type* t);                // DSL spelling via ir::TypeToString
std::string EnumName(EnumKind k, int64_t v);  // "pld.WaitCmp.Ge" (or the raw int)

// ---- expression queries -----------------------------------------------------
bool IsIntScalarType(const Type* t);        // Scalar of an integer dtype (not BOOL)
const Shape& ValidOf(const TensorType* t);  // view valid_shape, else shape

// ---- reporting ----------------------------------------------------------------
// "<op>: argument '<name>' <msg>" at argument `idx`'s span.
const Type* ArgError(DeduceContext& dc, int idx, std::string_view name, const std::string& msg);
// The registry name of positional argument `idx`.
std::string ArgName(const DeduceContext& dc, int idx);

// ---- argument kinds (name empty = the registry's name for idx) ---------------
// Window-bound side: As<DistributedTensorType>, never a plain tensor.
const DistributedTensorType* ExpectDist(DeduceContext& dc, int idx, std::string_view name = {});
// Local GM side: AsTensorTypeLike (pl.Tensor or pld.DistributedTensor).
const TensorType* ExpectTensorLike(DeduceContext& dc, int idx, std::string_view name = {});
// A rank index: a pl.Scalar of an integer dtype.
bool ExpectPeer(DeduceContext& dc, int idx, std::string_view name = {});
// Any pl.Scalar (notify's value, wait's expected).
bool ExpectAnyScalar(DeduceContext& dc, int idx, std::string_view name = {});
// A [a, b, ...] tuple of integer scalars with exactly `rank` elements (the rank
// of `of`, e.g. "'target'").
const MakeTuple* ExpectIndexTupleOf(DeduceContext& dc, int idx, size_t rank, const std::string& of,
                                    std::string_view name = {});

// ---- kwargs -------------------------------------------------------------------
// The enum payload of kwarg `key` (default when absent), reported and nullopt
// when outside the enum (MakeOpCall range-checks too; this guards codegen casts).
std::optional<int> EnumKw(DeduceContext& dc, std::string_view key, EnumKind kind, int def);
// An int kwarg (default when absent).
int64_t IntKw(const DeduceContext& dc, std::string_view key, int64_t def);
std::string StrKw(const DeduceContext& dc, std::string_view key, std::string def);

// atomic=Add needs a hardware atomic-add dtype (FP32/BF16/FP16/INT32/INT16/INT8);
// BF16 only on the a2a3 profile. Reported at argument `idx` (the destination).
bool CheckAtomicAddDtype(DeduceContext& dc, int idx, std::string_view name, DataType dt);

// ---- put/get transfer ----------------------------------------------------------
// Positions of the operands of one put/get form (-1 = absent).
struct TransferArgs {
  int dst = 0, peer = 1, src = 2;
  int dst_offsets = -1, src_offsets = -1, shape = -1;
  std::string_view dst_offsets_name = "dst_offsets", src_offsets_name = "src_offsets",
                   shape_name = "shape";
  bool dst_is_window = true;  // put: dst window-bound; get: src window-bound
};
struct Transfer {
  const TensorType* dst = nullptr;
  const TensorType* src = nullptr;
  Shape extent;  // the transfer shape (full slice or region `shape`)
};
// Kinds, peer, dtype/rank agreement, static positivity, full-slice shape match
// or region tuples (ranks, static bounds). nullopt after reporting.
std::optional<Transfer> CheckTransfer(DeduceContext& dc, const TransferArgs& a);
// Flattened 2-D [rows, cols] of a transfer extent (rows = product of the
// leading dims, nullopt when any is symbolic; cols = innermost, nullopt when
// symbolic). Rank-1 extents are [1, n].
struct Flat {
  std::optional<int64_t> rows, cols;
};
Flat Flatten(const Shape& extent);

// ---- collectives ------------------------------------------------------------
// Signal checks shared by pld.tensor.* and builtin.tensor.*: window-bound INT32.
const DistributedTensorType* ExpectSignal(DeduceContext& dc, int idx, std::string_view name = {});
// Signal of rank 1 [NR] or rank 2 [NR, 1] (the barrier-cell layout).
bool ExpectNrSignalShape(DeduceContext& dc, int idx, const DistributedTensorType* sig,
                         bool allow_rank1);
// A 2-D [NR*k, SIZE]-style window operand of the data collectives.
bool ExpectRank(DeduceContext& dc, int idx, const TensorType* t, size_t rank,
                const std::string& layout);
// Allreduce mesh signal: rank-1 [NR] (core_num == 1 only) or rank-2
// [NR, stride] with a static stride >= core_num.
bool CheckMeshSignal(DeduceContext& dc, int idx, const DistributedTensorType* sig,
                     int64_t core_num);
// Allreduce ring signal: rank-2 [rows, NR] with rows == 2 * (NR - 1) (InCore,
// allowed when `incore_rows`) or 2 * (NR - 1) + 1 (host builtin's extra return-
// barrier row, allowed when `host_rows`); checked when both dims are static.
bool CheckRingSignal(DeduceContext& dc, int idx, const DistributedTensorType* sig, bool incore_rows,
                     bool host_rows);
// Flat element addressing needs a packed row-major view: ND layout, empty or
// packed strides, full valid shape (all_to_all_v's input and target).
bool CheckPackedLayout(DeduceContext& dc, int idx, const TensorType* t);
// INT32 counts vector of shape [NR] or [NR, 1] (send_counts, recv_counts).
bool CheckCountsShape(DeduceContext& dc, int idx, const TensorType* t, bool allow_rank1);
// Two operands must be distinct values (same Var in both roles is rejected).
bool ExpectDistinct(DeduceContext& dc, int a, int b);

}  // namespace pypto::ir::dist
