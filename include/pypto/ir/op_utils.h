// Generic type, shape and expression helpers of the IR layer: static-int and
// scalar queries, shape comparison and spelling (ShapeStr, TypeStr, ...),
// shaped-type accessors, and the canonical type constructors (MakeTileType,
// MakeTensorType, ...). Op deducers, the parser, the verifier, passes and the
// emitter all use them, so all of them word diagnostics alike and build types
// in the one canonical form the printer/parser round-trip (a view that equals
// the implicit default is stored as std::nullopt). Nothing here knows a
// particular op: the deducers' argument checks (Expect*) live in the ops layer
// (src/ops/deduce_checks.h), and so do op-aware helpers (pypto/ops/affinity.h,
// pypto/ops/subscript_slice.h).
//
// Shape comparison policy: shapes may be symbolic (Vars, arithmetic). Two dims
// CONFLICT only when both are ConstInt and differ; they are EQUAL when they are
// structurally the same expression (same constant, same Var node, same
// arithmetic over equal operands). Deducers reject conflicts and accept anything
// else, because a symbolic mismatch cannot be proven at compile time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pypto/core/dtype.h"
#include "pypto/ir/expr.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/type.h"

namespace pypto::ir {

class Context;
using Shape = std::vector<const Expr*>;

// ---- expression queries -------------------------------------------------------

// Value of a ConstInt (any integer dtype), or of an integer expression of
// constants that folds without overflow (`1 - 1`, `~2`; see int_expr_fold.h);
// nullopt for anything else.
std::optional<int64_t> StaticInt(const Expr* e);
// The expression as a MakeTuple, or nullptr.
const MakeTuple* AsTuple(const Expr* e);
// Scalar-typed expression (ScalarType of any dtype).
bool IsScalar(const Expr* e);
// Scalar of an integer dtype (INT*, UINT*, INDEX; not BOOL).
bool IsIntegerScalar(const Expr* e);
// Scalar of a float dtype.
bool IsFloatScalar(const Expr* e);
// dtype of a scalar expression; nullopt when not a scalar.
std::optional<DataType> ScalarDType(const Expr* e);

// ---- shapes -------------------------------------------------------------------

// Structural equality of two dim expressions (see file comment).
bool DimEqual(const Expr* a, const Expr* b);
// Both ConstInt and different.
bool DimConflict(const Expr* a, const Expr* b);
// Same rank and every dim DimEqual.
bool SameShape(const Shape& a, const Shape& b);
// Same rank and no dim DimConflict.
bool ShapesCompatible(const Shape& a, const Shape& b);
// Index of the first conflicting dim; nullopt when compatible. Rank mismatch
// is reported as index min(rank a, rank b).
std::optional<size_t> FirstShapeConflict(const Shape& a, const Shape& b);
// Product of the dims when all are static; nullopt otherwise.
std::optional<int64_t> StaticNumel(const Shape& s);
// "[16, N, (M + 1)]" — deterministic, DSL-like spelling for diagnostics.
std::string ShapeStr(const Shape& s);
// Spelling of one dim expression (ConstInt value, Var name, arithmetic).
std::string DimStr(const Expr* e);
// Short DSL-like spelling of a type for diagnostics, e.g.
// "pl.Tensor[[16, 64], pl.FP32]", "pld.DistributedTensor[[4], pl.INT32]",
// "pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]", "pl.Scalar[pl.INDEX]", "pl.Ptr",
// "pl.Tuple[...]", "pl.UnknownType" — the printer's spellings, except that views
// (pl.TensorView / pl.TileView) and window-buffer bindings are not spelled.
std::string TypeStr(const Type* t);
// "pl.FP32".
std::string DTypeStr(DataType d);
// "pl.Mem.Vec".
std::string MemStr(MemorySpace m);

// ---- shaped-type accessors -----------------------------------------------------

// Element dtype of a tensor/tile/scalar type; nullopt otherwise.
std::optional<DataType> DTypeOf(const Type* t);
// Effective valid shape: the view's valid_shape when set, else the full shape.
// Empty for non-shaped types.
Shape ValidShapeOf(const Type* t);
// The same without a copy: the view's valid_shape or the full shape, inside
// the type; nullptr for non-shaped types.
const Shape* ValidShapeRef(const Type* t);
// Memory space of a tile type (nullopt when unset or not a tile).
std::optional<MemorySpace> MemOf(const Type* t);

// Per-dim intersection of two valid regions of equal rank: equal dims stay,
// static dims take the min, otherwise a scalar min(a, b) INDEX expression.
Shape IntersectValid(Context& ctx, const Shape& a, const Shape& b);
// The same for the valid regions `a` of a value of shape `full_a` and `b` of a
// value of (compatible) shape `full_b`: a dim equal to its own full extent does
// not narrow, so the other side's dim is taken as is (valid dims never exceed
// the full extent). Avoids min(64, n) when one operand is fully valid.
Shape IntersectValid(Context& ctx, const Shape& a, const Shape& full_a, const Shape& b,
                     const Shape& full_b);

// ---- canonical type builders ---------------------------------------------------

// Tile type; `valid_shape` empty or SameShape(shape) means "no view" unless
// other view fields are non-default. Pass a full TileView to keep layouts.
const TileType* MakeTileType(Context& ctx, const Shape& shape, DataType dt,
                             std::optional<MemorySpace> mem, Shape valid_shape = {});
const TileType* MakeTileType(Context& ctx, const Shape& shape, DataType dt,
                             std::optional<MemorySpace> mem, const TileView& view);
// Tensor type; a view equal to the default (packed, ND, full valid, no pad) is dropped.
const TensorType* MakeTensorType(Context& ctx, Shape shape, DataType dt,
                                 std::optional<TensorView> view = std::nullopt);
// Same kind as `like` (TensorType or DistributedTensorType, keeping its
// window_buffer) with a new shape/dtype/view.
const TensorType* MakeTensorTypeLike(Context& ctx, const TensorType* like, Shape shape, DataType dt,
                                     std::optional<TensorView> view);
// Canonical view: nullopt when every field is default for `shape`.
std::optional<TensorView> CanonicalTensorView(const Shape& shape, TensorView v);
// A MakeTuple of INDEX constants / expressions typed TupleType of their types.
const MakeTuple* MakeIndexTuple(Context& ctx, const std::vector<int64_t>& values, Span s = {});
const MakeTuple* MakeTupleOf(Context& ctx, std::vector<const Expr*> elems, Span s = {});

// ---- more queries and builders -------------------------------------------------

// A scalar `value` may be stored into / combined with elements of dtype `target`:
// its dtype equals `target`, or it is a literal (ConstInt into any numeric dtype,
// ConstFloat into a float dtype) that the emitter converts.
bool ScalarAssignable(const Expr* value, DataType target);
// Packed row-major strides of `shape` as expressions (static products folded;
// symbolic ones built as `dim * stride` INDEX BinaryExprs, deterministically).
Shape PackedStrides(Context& ctx, const Shape& shape);

// The 2-D form of an N-D tile shape: [prod(all but the last dim), last dim]
// (static products folded, symbolic ones built left to right with IRBuilder);
// shapes of rank <= 2 are returned unchanged. Used by flatten-tile-nd-to-2d
// and by the deducers of loads whose result it flattens (tile_2d=True).
Shape MergeLeadingDims(Context& ctx, const Shape& dims);
// True when the valid box `valid` of an N-D tile of `shape` occupies the same
// element positions in the merged 2-D tile as a row-major N-D box: every merged
// inner dim k (1 <= k < rank - 1) is either fully valid or preceded only by
// statically-1 valid dims. Then the 2-D valid shape is MergeLeadingDims(valid).
bool MergedValidContiguous(const Shape& shape, const Shape& valid);

// ---- core affinity ---------------------------------------------------------------

// Cube-side on-chip spaces (Mat, Left, Right, Acc, Bias) vs the vector side (Vec).
bool IsCubeMemory(MemorySpace m);
bool IsVectorMemory(MemorySpace m);
}  // namespace pypto::ir
