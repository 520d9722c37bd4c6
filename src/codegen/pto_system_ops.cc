// PTO emission of the core system ops: system.fence (a GM fence over all pipes),
// system.cacheinvalid (whole-GM form, or one region through a partition view)
// and system.check (a run-time precondition: trap unless it holds). InsertCommFence places these
// around communication; the emitter only spells them.
#include <fmt/format.h>

#include "pypto/codegen/pto_function_emitter.h"

namespace pypto::codegen {

using namespace pypto::ir;

namespace {

bool Fence(PtoFunctionEmitter& fe, const Call*, const Var*) {
  fe.Op("pto.fence.barrier_all #pto.fence_scope<gm>");
  return true;
}

// system.cacheinvalid() or system.cacheinvalid(tensor, shapes, offsets).
bool CacheInvalid(PtoFunctionEmitter& fe, const Call* c, const Var*) {
  if (c->args.empty()) {
    fe.Op("pto.cmo.cacheinvalid all #pto.address_space<gm>");
    return true;
  }
  if (c->args.size() != 3)
    return fe.Error(c->span, fmt::format("{}: expected 0 or 3 arguments (tensor, shapes, "
                                         "offsets), got {}",
                                         PtoFunctionEmitter::OpName(c), c->args.size()));
  const PtoTensor* t = fe.TensorArg(c, 0);
  if (!t) return false;
  auto sizes = fe.DimList(c->args[1], c->span);
  auto offs = fe.IndexList(c->args[2], c->span);
  if (!sizes || !offs) return false;
  auto pv =
      fe.PartitionView(t->view, t->view_type, t->type->dtype, *offs, *sizes, t->name + "_pview");
  fe.Op(fmt::format("pto.cmo.cacheinvalid {} single_cache_line : {}", pv.name, pv.type));
  return true;
}

// system.check(cond[, value], msg=...): the device has no message channel, so a
// failed check traps (the executor is where the message is read).
bool Check(PtoFunctionEmitter& fe, const Call* c, const Var*) {
  PtoValue cond = fe.CastTo(fe.Value(c->args[0]), "i1");
  if (!cond.ok()) return false;
  fe.Op(fmt::format("scf.if {} {{", cond.name));
  fe.out().Line("} else {");
  fe.out().Indent();
  fe.Op("pto.trap");
  fe.out().Dedent();
  fe.out().Line("}");
  return true;
}

}  // namespace

void RegisterPtoSystemOps(PtoOpTable& t) {
  t.Emit(ops::kSystemFence, Fence);
  t.Emit(ops::kSystemCacheinvalid, CacheInvalid);
  t.Emit(ops::kSystemCheck, Check);
}

}  // namespace pypto::codegen
