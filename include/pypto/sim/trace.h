// Chrome trace (chrome://tracing / Perfetto JSON) of a run: one track per
// logical thread, one complete ("X") event per op and function call. In random
// mode timestamps are switch-step counts, so the same seed gives the same bytes.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace pypto::sim {

class Trace {
 public:
  explicit Trace(bool enabled) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }
  void ThreadName(int tid, const std::string& name);
  void Event(int tid, const std::string& name, const std::string& cat, int64_t ts, int64_t dur,
             const std::string& args_json = "");
  std::string ToJson() const;

 private:
  struct Ev {
    int tid;
    std::string name, cat, args;
    int64_t ts, dur;
    uint64_t seq;
  };
  bool enabled_;
  mutable std::mutex mu_;
  std::vector<Ev> events_;
  std::vector<std::pair<int, std::string>> names_;
  uint64_t seq_ = 0;
};

std::string JsonEscape(const std::string& s);

}  // namespace pypto::sim
