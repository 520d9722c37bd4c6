// sim::Session: runs of one program on one persistent Machine (see session.h).
#include "pypto/sim/session.h"

#include <fmt/format.h>

namespace pypto::sim {

Session::Session(ir::Context& ctx, const ir::Program& program, const RunOptions& options,
                 bool reset_windows)
    : ctx_(ctx), program_(program), options_(options), reset_windows_(reset_windows) {
  int ranks = options.ranks < 1 || options.ranks > kMaxRanks ? 1 : options.ranks;
  machine_ = std::make_unique<Machine>(ranks, options.poison_nan,
                                       options.memory_limit < 0 ? 0 : options.memory_limit);
  machine_->SetPersistent(true);
}

RunResult Session::Run(const std::map<std::string, HostArray>& inputs, const RunOptions& options) {
  RunResult res;
  if (!CheckRunOptions(options_, &res)) return res;
  if (options.ranks != options_.ranks || options.poison_nan != options_.poison_nan ||
      options.memory_limit != options_.memory_limit) {
    res.exit_code = 2;
    res.report = fmt::format(
        "error: a session run must keep the session's ranks ({}), poison_nan and memory_limit\n",
        options_.ranks);
    return res;
  }
  if (runs_ > 0 && reset_windows_) machine_->ZeroWindows();
  ++runs_;
  return RunProgramOn(ctx_, program_, inputs, options, *machine_);
}

const uint8_t* Session::WindowBytes(const std::string& name, int rank, int64_t* bytes) const {
  if (rank < 0 || rank >= machine_->ranks()) return nullptr;
  for (size_t i = 0; i < machine_->NumAllocations(); ++i) {
    Allocation& a = machine_->alloc(static_cast<int>(i));
    if (a.name != name) continue;
    if (bytes) *bytes = a.bytes;
    return a.mem[static_cast<size_t>(rank)];
  }
  return nullptr;
}

}  // namespace pypto::sim
