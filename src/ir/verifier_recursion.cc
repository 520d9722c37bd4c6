// Verifier check: recursion, direct or mutual, is an error naming the call
// cycle ("call cycle: f -> g -> f"). Functions are inlined by passes and run by
// the executor on a native stack; a recursive program has no bounded lowering
// and used to overflow the executor's C++ stack (SIGSEGV in pypto-run, the
// Python interpreter killed in pypto.sim.run). Deterministic: functions are
// visited in program order and calls in body order, and each cycle is reported
// once, at the call that closes it.
#include <fmt/format.h>

#include <unordered_map>

#include "verifier_internal.h"

namespace pypto::ir::verifier_detail {

void Verifier::CheckCallCycles() {
  enum class Mark : uint8_t { kNew, kOnStack, kDone };
  std::unordered_map<const Function*, Mark> mark;
  struct Frame {
    const Function* f;
    size_t next;  // index of the next call edge of f to follow
  };
  std::vector<Frame> stack;
  for (const Function* root : prog_.functions) {
    if (!root || mark[root] != Mark::kNew) continue;
    stack.push_back({root, 0});
    mark[root] = Mark::kOnStack;
    while (!stack.empty()) {  // iterative DFS: a long call chain cannot overflow
      Frame& fr = stack.back();
      auto it = calls_.find(fr.f);
      if (it == calls_.end() || fr.next >= it->second.size()) {
        mark[fr.f] = Mark::kDone;
        stack.pop_back();
        continue;
      }
      const CallEdge& e = it->second[fr.next++];
      Mark& m = mark[e.callee];
      if (m == Mark::kNew) {
        m = Mark::kOnStack;
        stack.push_back({e.callee, 0});
      } else if (m == Mark::kOnStack) {
        std::string cycle;
        size_t k = stack.size();
        while (k > 0 && stack[k - 1].f != e.callee) --k;
        for (size_t i = k - 1; i < stack.size(); ++i) cycle += stack[i].f->name + " -> ";
        cycle += e.callee->name;
        Error(e.at, fmt::format("recursive call of '{}' (call cycle: {}); recursion is not "
                                "supported: functions are inlined and run on a bounded stack",
                                e.callee->name, cycle));
      }
    }
  }
}

}  // namespace pypto::ir::verifier_detail
