// Which calls ConvertTensorToTileOps rewrites (see tile_conversion.h).
#include "tile_conversion.h"

#include <array>
#include <string>
#include <string_view>

#include "pypto/ir/op_registry.h"

namespace pypto::passes {

// Elementwise tensor ops with a same-named tile op (when both are registered).
static constexpr std::array<std::string_view, 24> kElementwise = {
    "add",  "sub",  "mul",  "div",   "maximum", "minimum", "exp",  "log",
    "neg",  "abs",  "sqrt", "rsqrt", "recip",   "relu",    "adds", "subs",
    "muls", "divs", "maxs", "mins",  "cast",    "and",     "or",   "not"};

bool NeedsTileConversion(const ir::Call& c) {
  if (!c.op) return false;
  std::string_view n = c.OpName();
  if (n == "pld.tensor.put" || n == "pld.tensor.get" || n == "pld.tensor.remote_store" ||
      n == "tensor.assemble")
    return true;
  if (n.substr(0, 7) != "tensor.") return false;
  std::string_view base = n.substr(7);
  for (std::string_view e : kElementwise)
    if (e == base) return ir::OpRegistry::Global().Find("tile." + std::string(base)) != nullptr;
  return false;
}

}  // namespace pypto::passes
