// PTO emission of tensor views used as kernel operands: tensor.view (a reshape
// of a contiguous GM tensor) and tensor.slice (a rectangular region). Neither
// moves data; each becomes a new addressed tensor (PtoTensor) that later ops use
// exactly like a parameter:
//  * view:  `pto.make_tensor_view` over the SAME pointer with the new shape and
//           packed strides (same-shape views alias the parent's view);
//  * slice: the pointer advanced to the region start (`pto.addptr` by
//           sum(offset_k * stride_k) elements) and a `make_tensor_view` with the
//           region's shape and the parent's strides.
// The derived tensor keeps the parent's DistributedTensor-ness and CommCtx, so
// peer addressing (PtoFunctionEmitter::PeerView) works on it unchanged: the
// peer's copy of the view sits at the same displacement from the peer's window
// base as the local one does from the local base.
#include <fmt/format.h>

#include "pypto/codegen/pto_function_emitter.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/op_utils.h"

namespace pypto::codegen {

using namespace pypto::ir;

const PtoTensor* PtoFunctionEmitter::DeriveTensor(const PtoTensor& parent, const TensorType* type,
                                                  std::string ptr, std::string_view name) {
  auto t = std::make_unique<PtoTensor>();
  t->type = type;
  t->distributed = parent.distributed;
  t->name = std::string(name);
  t->ptr = std::move(ptr);
  t->ptr_type = parent.ptr_type;
  t->ctx = parent.ctx;
  if (!EmitTensorView(*t)) return nullptr;
  tensors_.push_back(std::move(t));
  return tensors_.back().get();
}

namespace {

// Row-major contiguous at the type level: ND layout, no recorded strides or
// the packed ones.
bool PackedND(Context& ctx, const TensorType* t) {
  return !t->view ||
         (t->view->layout == TensorLayout::kND &&
          (t->view->stride.empty() || SameShape(t->view->stride, PackedStrides(ctx, t->shape))));
}

TensorLayout LayoutOf(const TensorType* t) { return t->view ? t->view->layout : TensorLayout::kND; }

void BindTensor(PtoFunctionEmitter& fe, const Var* result, const PtoTensor* t) {
  PtoBinding b;
  b.kind = PtoBinding::Kind::kTensor;
  b.tensor = t;
  fe.Bind(result, b);
}

bool TensorView(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoTensor* in = fe.TensorArg(c, 0);
  if (!in) return false;
  const TensorType* rt = AsTensorTypeLike(c->type);
  if (!rt)
    return fe.Error(c->span,
                    fmt::format("{}: expected a tensor result", PtoFunctionEmitter::OpName(c)));
  if (!result) return true;  // a view nobody uses addresses nothing
  if (LayoutOf(rt) != LayoutOf(in->type))
    return fe.Error(c->span, fmt::format("{}: changing a tensor's layout is not supported by the "
                                         "PTO backend; view it with its own layout",
                                         PtoFunctionEmitter::OpName(c)));
  if (SameShape(rt->shape, in->type->shape)) {
    // Only the valid region changes: partition views carry their own extents.
    BindTensor(fe, result, in);
    return true;
  }
  if (!PackedND(fe.ctx(), in->type))
    return fe.Error(c->span, fmt::format("{}: reshaping '{}' is not supported by the "
                                         "PTO backend; only packed ND tensors can be reshaped",
                                         PtoFunctionEmitter::OpName(c), in->name));
  const PtoTensor* t = fe.DeriveTensor(*in, rt, in->ptr, result->name_hint);
  if (!t) return false;
  BindTensor(fe, result, t);
  return true;
}

bool TensorSlice(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoTensor* in = fe.TensorArg(c, 0);
  if (!in) return false;
  const TensorType* rt = AsTensorTypeLike(c->type);
  if (!rt)
    return fe.Error(c->span,
                    fmt::format("{}: expected a tensor result", PtoFunctionEmitter::OpName(c)));
  if (!result) return true;
  // The slice's type takes explicit parent strides, or packed row-major ones;
  // a DN/NZ parent without explicit strides is addressed column-major here.
  if (LayoutOf(in->type) != TensorLayout::kND && in->type->view->stride.empty())
    return fe.Error(c->span, fmt::format("{}: slicing '{}' is not supported by the "
                                         "PTO backend; a {} tensor needs explicit strides "
                                         "(pl.TensorView(stride=...)) to be sliced",
                                         PtoFunctionEmitter::OpName(c), in->name,
                                         LayoutOf(in->type) == TensorLayout::kDN ? "DN" : "NZ"));
  const MakeTuple* off = AsTuple(c->args[2]);
  if (!off || off->elements.size() != in->strides.size())
    return fe.Error(c->span, fmt::format("{}: offset must be a tuple with one index per dim",
                                         PtoFunctionEmitter::OpName(c)));
  // Element offset of the region start: sum(offset_k * stride_k); static terms
  // are folded, zero terms skipped.
  int64_t static_off = 0;
  std::string flat;
  auto add = [&](const std::string& term) {
    if (flat.empty()) {
      flat = term;
      return;
    }
    std::string n = fe.Temp();
    fe.Op(fmt::format("{} = arith.addi {}, {} : index", n, flat, term));
    flat = n;
  };
  for (size_t k = 0; k < off->elements.size(); ++k) {
    auto so = StaticInt(off->elements[k]);
    if (so == 0) continue;
    auto ss = fe.ConstValue(in->strides[k]);
    if (so && ss) {
      static_off += *so * *ss;
      continue;
    }
    std::string o = fe.AsIndex(off->elements[k]);
    if (o.empty()) return false;
    if (ss == 1) {
      add(o);
      continue;
    }
    std::string term = fe.Temp();
    fe.Op(fmt::format("{} = arith.muli {}, {} : index", term, o, in->strides[k]));
    add(term);
  }
  if (static_off != 0) add(fe.ConstIndex(static_off));
  std::string ptr = in->ptr;
  if (!flat.empty()) {
    ptr = fe.Named(result->name_hint + "_ptr");
    fe.Op(fmt::format("{} = pto.addptr {}, {} : {} -> {}", ptr, in->ptr, flat, in->ptr_type,
                      in->ptr_type));
  }
  const PtoTensor* t = fe.DeriveTensor(*in, rt, ptr, result->name_hint);
  if (!t) return false;
  BindTensor(fe, result, t);
  return true;
}

}  // namespace

void RegisterPtoTensorViewOps(PtoOpTable& t) {
  t.Emit(ops::kTensorView, TensorView);
  t.Emit(ops::kTensorSlice, TensorSlice);
}

}  // namespace pypto::codegen
