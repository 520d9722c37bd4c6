// The ops layer's view of the registry: every handle of op_list.def registered
// under its own name (checked once, on first use).
#include "pypto/ops/ops.h"

#include <fmt/format.h>

#include "pypto/core/check.h"

namespace pypto::ops {

const ir::OpRegistry& Registry() {
  static const ir::OpRegistry* reg = [] {
    const ir::OpRegistry& r = ir::OpRegistry::Global();
    for (size_t i = 0; i < kOpCount; ++i) {
      ir::OpHandle h{static_cast<uint16_t>(i)};
      PYPTO_CHECK(r.Has(h) && r.Get(h).name == kOpNames[i],
                  fmt::format("op_list.def entry {} ({}) is not registered under its name", i,
                              kOpNames[i]));
    }
    PYPTO_CHECK(r.size() == kOpCount, "an op is registered that op_list.def does not list");
    return &r;
  }();
  return *reg;
}

}  // namespace pypto::ops
