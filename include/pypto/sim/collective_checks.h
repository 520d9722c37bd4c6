// Run-time checks of a whole-operation or builtin collective call against the
// size of its comm domain, made on each rank before the collective runs: the
// facts the compiler could not check because the rank count P is only known
// when the program runs. One entry point shared by every executor path of a
// collective (the whole-operation oracle and kernel-level builtins).
#pragma once

#include <vector>

#include "pypto/sim/value.h"

namespace pypto::ir {
struct Call;
}

namespace pypto::sim {

class Exec;
struct Domain;

// Fails (Exec::Fail at the call) when the call's signal does not have the
// layout the collective indexes for d's rank count P (mesh [>= P] /
// [>= P, stride >= core_num]: a device-subset domain's synthesized signal has
// world_size lanes; InCore ring [>= 2 * (P - 1), P]; HOST ring builtin
// [2 * (P - 1) + 1, P] with P <= the ring limit; barrier, broadcast,
// reduce_scatter, allgather, all_to_all [P] / [P, 1]; all_to_all_v's signal
// and recv_counts [P, 1], send_counts [P] / [P, 1]), or when a [P, SIZE]
// target (reduce_scatter, allgather, all_to_all and its input) does not have
// P rows. Messages name the operand, its window, the expected and the actual
// shape.
void CheckCollectiveOperands(Exec& ex, const ir::Call& call, std::vector<Value>& args,
                             const Domain& d);

}  // namespace pypto::sim
