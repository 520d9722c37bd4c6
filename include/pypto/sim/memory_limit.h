// The executor's memory limit (RunOptions::memory_limit, `--memory-limit`):
// the up-front estimate of what a run will allocate — the entry's host tensors
// plus, on every rank, its window parameters and each alloc_window_buffer whose
// size is a constant — checked before anything is allocated, and the messages
// both that check and the run-time check of Machine::NewAllocation print.
// Window memory is mapped lazily (untouched pages cost nothing), so the limit
// bounds what a run *may* touch, not what it does.
#pragma once

#include <cstdint>
#include <string>

#include "pypto/ir/program.h"

namespace pypto::sim {

struct MemoryEstimate {
  int64_t host_bytes = 0;    // host tensor parameters of the entry
  int64_t window_bytes = 0;  // windows, summed over every rank
  bool overflow = false;     // a sum did not fit in int64 (always above any limit)

  void AddHost(int64_t bytes);
  void AddWindow(int64_t bytes_per_rank, int ranks);
  bool Exceeds(int64_t limit) const;  // limit 0 = none
  // "9.0 GiB (9663676416 bytes: windows 8.0 GiB on 2 ranks, host tensors 1.0 GiB)"
  std::string Describe(int ranks) const;
};

// Adds every pld.tensor.alloc_window_buffer whose size is a constant (bytes,
// or a shape of constants with dtype=) in the functions reachable from
// `entry`, once per call site.
void AddConstantWindowSites(const ir::Program& program, const ir::Function& entry, int ranks,
                            MemoryEstimate* est);

// "4.0 GiB (4294967296 bytes)"-style rendering of a byte count.
std::string FormatBytes(int64_t bytes);

// The sentence every refusal ends with: how to raise the limit.
std::string MemoryLimitHint(int64_t limit);

}  // namespace pypto::sim
