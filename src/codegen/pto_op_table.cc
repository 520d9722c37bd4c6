// The PTO emitter's op table: op name -> emitter function, filled by one
// Register* function per op family file, plus the explicit list of ops that have
// no PTO lowering. A unit test walks the op registry and requires every
// registered op to be in one of the two, so no op is half-supported silently.
#include <fmt/format.h>

#include "pypto/codegen/pto_function_emitter.h"

namespace pypto::codegen {

static void RegisterUnsupported(PtoOpTable& t) {
  const std::string host =
      "host-side op: it belongs in the host orchestrator, which is not emitted as PTO";
  t.unsupported["pld.system.world_size"] = host;
  t.unsupported["pld.tensor.alloc_window_buffer"] = host;
  t.unsupported["pld.tensor.window"] = host;
  t.unsupported["tile.get_subblock_idx"] =
      "split_aiv sub-block indices are not passed to PTO kernels yet";
}

const PtoOpTable& GetPtoOpTable() {
  static const PtoOpTable table = [] {
    PtoOpTable t;
    RegisterPtoTileOps(t);
    RegisterPtoDistributedOps(t);
    RegisterPtoSystemOps(t);
    RegisterPtoScalarAccessOps(t);
    RegisterPtoTensorViewOps(t);
    RegisterPtoArrayOps(t);
    RegisterUnsupported(t);
    return t;
  }();
  return table;
}

bool HasPtoEmitter(std::string_view op_name) {
  const auto& e = GetPtoOpTable().emitters;
  return e.find(op_name) != e.end();
}

bool IsPtoUnsupported(std::string_view op_name, std::string* hint) {
  std::string_view n = op_name;
  const auto& u = GetPtoOpTable().unsupported;
  if (auto it = u.find(n); it != u.end()) {
    if (hint) *hint = it->second;
    return true;
  }
  // Documented prefix rules: tensor-level ops (core and distributed) are lowered
  // to tile ops before codegen; builtin collectives are prebuilt kernels the host
  // runtime dispatches.
  if (n.substr(0, 7) == "tensor." || n.substr(0, 11) == "pld.tensor.") {
    if (hint)
      *hint =
          "tensor-level op: lower it to tile ops (convert-tensor-to-tile-ops / "
          "lower-composite-ops, part of --pipeline=default) before PTO emission";
    return true;
  }
  if (n.substr(0, 8) == "builtin.") {
    if (hint)
      *hint =
          "builtin collective kernels are dispatched by the host runtime, not emitted "
          "as PTO";
    return true;
  }
  return false;
}

}  // namespace pypto::codegen
