// The PTO emitter's per-op table, keyed by op handle: for every registered op
// either the function that emits it (with its PTO spelling when a shared family
// emitter spells it, e.g. tile.add -> "pto.tadd") or the declared reason it has
// no PTO lowering. The entries are filled by one Register* function per op
// family file; the reasons are declared once, in pto_op_table.cc. A unit test
// checks both directions (every entry is a registered op, every registered op
// has an entry or a reason), so no op is half-supported silently.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "pypto/ir/expr.h"
#include "pypto/ir/op_handle.h"
#include "pypto/ops/ops.h"

namespace pypto::codegen {

class PtoFunctionEmitter;
// Emits one call. `result` is the assigned variable (null for an EvalStmt).
// Returns false after reporting a diagnostic.
using PtoOpEmitFn = bool (*)(PtoFunctionEmitter& fe, const ir::Call* call, const ir::Var* result);

// Why an op deliberately has no PTO lowering. Each reason has the note printed
// under "<op>: not supported by the PTO backend" (PtoUnsupportedHint).
enum class PtoUnsupported : uint8_t {
  kNone,
  kHostSide,     // belongs in the host orchestrator, which is not emitted
  kTensorLevel,  // converted to tile ops (the default pipeline) before emission
  kBuiltin,      // a builtin collective: the host runtime dispatches it
};

// The note printed with the "not supported" error for `why` (empty for kNone).
std::string_view PtoUnsupportedHint(PtoUnsupported why);

// One op's PTO decision.
struct PtoOpEntry {
  PtoOpEmitFn emit = nullptr;
  std::string_view spelling;  // the PTO op a shared family emitter writes ("pto.tadd")
  PtoUnsupported unsupported = PtoUnsupported::kNone;
  bool declared() const { return emit != nullptr || unsupported != PtoUnsupported::kNone; }
};

class PtoOpTable {
 public:
  // Declares the emitter of `h` (checked: at most one decision per op).
  void Emit(ir::OpHandle h, PtoOpEmitFn fn, std::string_view spelling = {});
  // Declares that `h` has no PTO lowering, and why (checked likewise).
  void Unsupported(ir::OpHandle h, PtoUnsupported why);
  // The entry of `h`; an empty one for a handle outside the table.
  const PtoOpEntry& operator[](ir::OpHandle h) const {
    static const PtoOpEntry kEmpty;
    return h.valid() && h.id < entries_.size() ? entries_[h.id] : kEmpty;
  }
  static constexpr size_t size() { return ops::kOpCount; }

 private:
  PtoOpEntry& Slot(ir::OpHandle h);
  std::array<PtoOpEntry, ops::kOpCount> entries_{};
};

const PtoOpTable& GetPtoOpTable();
// The PTO spelling declared for the op of `c` (the shared family emitters use it).
std::string_view PtoSpelling(const ir::Call* c);

void RegisterPtoTileOps(PtoOpTable& t);
void RegisterPtoDistributedOps(PtoOpTable& t);
void RegisterPtoSystemOps(PtoOpTable& t);
void RegisterPtoScalarAccessOps(PtoOpTable& t);
void RegisterPtoTensorViewOps(PtoOpTable& t);
void RegisterPtoArrayOps(PtoOpTable& t);  // pto_array_ops.cc
void RegisterPtoCubeOps(PtoOpTable& t);   // pto_cube_ops.cc

}  // namespace pypto::codegen
