// ir::Context construction and small out-of-line node helpers.
#include "pypto/ir/context.h"

#include "pypto/ir/op_registry.h"

namespace pypto::ir {

Context::Context() {
  unknown_ = Make<UnknownType>();
  ptr_ = Make<PtrType>();
  comm_ctx_ = Make<CommCtxType>();
  window_buffer_ = Make<WindowBufferType>();
  for (size_t i = 0; i <= static_cast<size_t>(DataType::kIndex); ++i)
    scalars_[i] = Make<ScalarType>(static_cast<DataType>(i));
}

std::string_view NodeKindName(NodeKind k) {
  switch (k) {
#define PYPTO_TYPE(N) \
  case NodeKind::k##N: \
    return #N;
#define PYPTO_EXPR(N) PYPTO_TYPE(N)
#define PYPTO_STMT(N) PYPTO_TYPE(N)
#include "pypto/ir/node_kinds.def"
    default:
      return "?";
  }
}

DataType ConstInt::dtype() const { return static_cast<const ScalarType*>(type)->dtype; }
DataType ConstFloat::dtype() const { return static_cast<const ScalarType*>(type)->dtype; }

bool Call::IsOp(std::string_view name) const { return op != nullptr && op->name == name; }
std::string_view Call::OpName() const { return op ? std::string_view(op->name) : std::string_view(); }

std::string_view BinaryOpSymbol(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd: return "+";
    case BinaryOp::kSub: return "-";
    case BinaryOp::kMul: return "*";
    case BinaryOp::kDiv: return "/";
    case BinaryOp::kFloorDiv: return "//";
    case BinaryOp::kFloorMod: return "%";
    case BinaryOp::kPow: return "**";
    case BinaryOp::kMin: return "min";
    case BinaryOp::kMax: return "max";
    case BinaryOp::kEq: return "==";
    case BinaryOp::kNe: return "!=";
    case BinaryOp::kLt: return "<";
    case BinaryOp::kLe: return "<=";
    case BinaryOp::kGt: return ">";
    case BinaryOp::kGe: return ">=";
    case BinaryOp::kAnd: return "and";
    case BinaryOp::kOr: return "or";
    case BinaryOp::kBitAnd: return "&";
    case BinaryOp::kBitOr: return "|";
    case BinaryOp::kBitXor: return "^";
    case BinaryOp::kShl: return "<<";
    case BinaryOp::kShr: return ">>";
  }
  return "?";
}

bool IsComparison(BinaryOp op) {
  return op == BinaryOp::kEq || op == BinaryOp::kNe || op == BinaryOp::kLt ||
         op == BinaryOp::kLe || op == BinaryOp::kGt || op == BinaryOp::kGe;
}

}  // namespace pypto::ir
