// Host state of a multi-process run. With a Transport the host orchestrator runs
// in every process (the same code on the same inputs) while each process runs
// only its own rank's queued tasks, so after a Flush the host tensors those
// tasks wrote differ between processes. HostSync snapshots, before the tasks
// run, every host tensor they may write (writable parameters of dispatched
// functions, every host operand of a host collective); Exchange() sends each
// process's changed byte ranges to every process and applies them in rank
// order, so every process holds the host state the in-process engine reaches
// (a byte written by one rank takes its value; bytes written by several ranks
// unordered are a race whose outcome is the highest rank's write).
#pragma once

#include <memory>
#include <vector>

#include "pypto/sim/interpreter.h"
#include "pypto/sim/transport.h"

namespace pypto::sim {

class HostSync {
 public:
  explicit HostSync(const std::vector<std::vector<Task>>& queues);
  void Exchange(Transport& tp);

 private:
  void Add(const Value& v);
  std::vector<std::shared_ptr<HostStorage>>
      bufs_;  // in first-use order (the same in every process)
  std::vector<std::vector<uint8_t>> before_;
};

}  // namespace pypto::sim
