// CheckAllreduceSignalShape: see allreduce_signal_shape.h.
#include "allreduce_signal_shape.h"

#include <fmt/format.h>

#include "pass_util.h"
#include "pypto/ir/op_utils.h"

namespace pypto::passes {

using namespace ir;

bool CheckAllreduceSignalShape(const Call& call, Span span, DiagnosticEngine& diag) {
  if (call.args.size() < 2) return true;
  const TensorType* st = util::TensorTypeOf(call.args[1]);
  if (!st) return true;
  const Attr* mode = FindAttr(call.kwargs, "mode");
  bool ring = mode && mode->s == "ring";
  auto fail = [&](const std::string& why) {
    diag.Error(span, fmt::format("{}: argument 'signal' has shape {}; {}", call.op->name,
                                 ShapeStr(st->shape), why));
    return false;
  };
  const char* shared =
      "one signal cannot serve both: mesh uses [NR, 1] (cell [rank, 0]), ring "
      "[2 * (NR - 1), NR] (cell [row, rank])";
  // The deducer has checked each mode's rank and static row count; what is left
  // is the column count the InCore lowering addresses.
  if (st->rank() != 2) return true;
  auto rows = StaticInt(st->shape[0]);
  auto cols = StaticInt(st->shape[1]);
  if (!ring && (!mode || mode->s == "mesh") && cols && *cols != 1)
    return fail(
        fmt::format("an InCore mode=\"mesh\" allreduce needs an [NR] or [NR, 1] "
                    "signal; {}",
                    shared));
  if (ring && cols == std::optional<int64_t>(1) && !rows)
    return fail(
        fmt::format("mode=\"ring\" needs one column per rank ([2 * (NR - 1), NR]); {}", shared));
  return true;
}

}  // namespace pypto::passes
