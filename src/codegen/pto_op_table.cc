// The PTO emitter's op table (pto_op_table.h): the emitters, filled by one
// Register* function per op family file, and — declared once, here — the
// reasons the remaining ops have no PTO lowering. Whole families get their
// reason from the traits their registration declares (a tensor op with a tile
// twin, a collective, a builtin collective), so adding an element-wise op needs
// no entry here; the unit test pto_emitter_test walks the registry and requires
// every op to have an emitter or a reason.
#include "pypto/codegen/pto_op_table.h"

#include <fmt/format.h>

#include <cstdlib>

#include "pypto/ops/ops.h"

namespace pypto::codegen {

using ir::OpFamily;
using ir::OpHandle;

std::string_view PtoUnsupportedHint(PtoUnsupported why) {
  switch (why) {
    case PtoUnsupported::kNone:
      return {};
    case PtoUnsupported::kHostSide:
      return "host-side op: it belongs in the host orchestrator, which is not emitted as PTO";
    case PtoUnsupported::kTensorLevel:
      return "tensor-level op: lower it to tile ops (convert-tensor-to-tile-ops / "
             "lower-composite-ops, part of --pipeline=default) before PTO emission";
    case PtoUnsupported::kBuiltin:
      return "builtin collective kernels are dispatched by the host runtime, not emitted as PTO";
  }
  return {};
}

PtoOpEntry& PtoOpTable::Slot(OpHandle h) {
  if (!h.valid() || h.id >= entries_.size() || entries_[h.id].declared()) {
    fmt::print(stderr, "internal error: PTO op table: op #{} declared twice or out of range\n",
               h.id);
    std::abort();
  }
  return entries_[h.id];
}

void PtoOpTable::Emit(OpHandle h, PtoOpEmitFn fn, std::string_view spelling) {
  PtoOpEntry& e = Slot(h);
  e.emit = fn;
  e.spelling = spelling;
}

void PtoOpTable::Unsupported(OpHandle h, PtoUnsupported why) { Slot(h).unsupported = why; }

namespace {

// Ops without a PTO lowering that no family rule below covers.
constexpr std::pair<OpHandle, PtoUnsupported> kUnsupported[] = {
    {ops::kPldWorldSize, PtoUnsupported::kHostSide},
    {ops::kPldAllocWindowBuffer, PtoUnsupported::kHostSide},
    {ops::kPldWindow, PtoUnsupported::kHostSide},
    {ops::kTensorCreate, PtoUnsupported::kTensorLevel},
};

// The family rules: a tensor op with a tile twin (tensor.add, pld.tensor.put,
// ...) is converted to that twin, and a collective is lowered, before emission;
// a builtin collective is dispatched by the host runtime.
PtoUnsupported FamilyReason(const ir::OpDef& op) {
  if (op.tile_twin.valid() || op.family == OpFamily::kCollective)
    return PtoUnsupported::kTensorLevel;
  if (op.family == OpFamily::kBuiltinCollective) return PtoUnsupported::kBuiltin;
  return PtoUnsupported::kNone;
}

}  // namespace

const PtoOpTable& GetPtoOpTable() {
  static const PtoOpTable table = [] {
    PtoOpTable t;
    RegisterPtoTileOps(t);
    RegisterPtoDistributedOps(t);
    RegisterPtoSystemOps(t);
    RegisterPtoScalarAccessOps(t);
    RegisterPtoTensorViewOps(t);
    RegisterPtoArrayOps(t);
    RegisterPtoCubeOps(t);
    for (const auto& [h, why] : kUnsupported) t.Unsupported(h, why);
    for (const ir::OpDef* op : ops::Registry().All()) {
      if (t[op->handle].declared()) continue;
      if (PtoUnsupported why = FamilyReason(*op); why != PtoUnsupported::kNone)
        t.Unsupported(op->handle, why);
    }
    return t;
  }();
  return table;
}

std::string_view PtoSpelling(const ir::Call* c) {
  return c->op ? GetPtoOpTable()[c->op->handle].spelling : std::string_view{};
}

}  // namespace pypto::codegen
