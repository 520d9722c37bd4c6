// A run session: one simulated machine kept across several runs of the same
// program, so the windows a host orchestrator allocates (pld.alloc_window_buffer)
// persist from one call to the next — upstream's `compiled.prepare(persistent=True)`.
// An allocation made again at the same source position with the same name and
// size is the same window; `reset_windows` zeroes every window before each run
// after the first (upstream's default), off for serving-style state carried
// across calls. Not thread-safe: one run at a time.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "pypto/sim/machine.h"
#include "pypto/sim/run.h"

namespace pypto::sim {

class Session {
 public:
  // `options` fixes ranks, poison_nan and memory_limit for every run.
  Session(ir::Context& ctx, const ir::Program& program, const RunOptions& options,
          bool reset_windows);

  // One run; `options` is the session's with per-run fields (entry, schedule,
  // detectors, subworker, ...) taken from the argument. ranks, poison_nan and
  // memory_limit must match the session's (exit 2 otherwise).
  RunResult Run(const std::map<std::string, HostArray>& inputs, const RunOptions& options);
  RunResult Run(const std::map<std::string, HostArray>& inputs) { return Run(inputs, options_); }

  // Zeroes every window now (the next run starts from zeroed windows).
  void ResetWindows() { machine_->ZeroWindows(); }
  bool reset_windows() const { return reset_windows_; }
  int runs() const { return runs_; }
  int ranks() const { return machine_->ranks(); }
  const RunOptions& options() const { return options_; }
  // Windows the session holds, and one rank's bytes of the named one (nullptr
  // when there is none).
  size_t NumWindows() const { return machine_->NumAllocations(); }
  const uint8_t* WindowBytes(const std::string& name, int rank, int64_t* bytes = nullptr) const;

 private:
  ir::Context& ctx_;
  const ir::Program& program_;
  RunOptions options_;
  bool reset_windows_;
  int runs_ = 0;
  std::unique_ptr<Machine> machine_;
};

}  // namespace pypto::sim
