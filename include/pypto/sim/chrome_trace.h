// Streaming writer of the Chrome trace JSON (chrome://tracing, Perfetto): each
// event is written as it is recorded, so `--trace` costs O(1) memory however
// long the run; Close() (or the destructor) ends the JSON document, so the file
// parses after a deadlock, a failure or an interrupted run too.
#pragma once

#include <cstdio>
#include <string>

#include "pypto/sim/trace.h"

namespace pypto::sim {

class ChromeTraceWriter {
 public:
  explicit ChromeTraceWriter(const std::string& path);
  ~ChromeTraceWriter();
  bool ok() const { return !failed_; }
  void Thread(const TraceThread& t);
  void Event(const TraceEvent& e);
  void Close();

 private:
  void Item(const std::string& json);
  std::FILE* f_ = nullptr;
  bool first_ = true, failed_ = false;
};

}  // namespace pypto::sim
