// Outside-project example, the smallest: list every op the package registers,
// with its one-line doc. It calls the IR layer only (ir::OpRegistry::Global()),
// so nothing references the ops library by name: the registry is full only
// because pypto::pypto / pypto.pc link pypto_ops whole-archive (docs/install.md).
// Exits nonzero when the registry is empty or lacks a pld op.
#include <cstdio>
#include <string>

#include "pypto/ir/op_registry.h"
#include "pypto/ops/ops.h"  // the handles only (constexpr): no reference into the ops library

int main() {
  const pypto::ir::OpRegistry& r = pypto::ir::OpRegistry::Global();
  for (const pypto::ir::OpDef* op : r.All()) {
    const std::string& doc = op->doc;
    std::printf("%-36s %s\n", op->name.c_str(), doc.substr(0, doc.find(". ")).c_str());
  }
  if (r.size() == 0 || !r.Has(pypto::ops::kPldTensorPut)) {
    std::fprintf(stderr, "op registry is empty: pypto_ops was not linked whole-archive\n");
    return 1;
  }
  std::printf("OK: %zu ops registered\n", r.size());
  return 0;
}
