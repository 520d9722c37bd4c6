// What a run records for `--trace` and `--timeline`: one TraceEvent per op,
// function call and task of every logical thread, with the facts a reader of a
// distributed run needs (how long a wait blocked, which notify released it, how
// many remote bytes an op moved, the signal cell). Trace fans each event out to
// the streaming Chrome-trace writer (chrome_trace.h: O(1) memory, the file is
// valid JSON at every exit) and, for `--timeline`, keeps it for the HTML
// renderer (timeline_html.h). In random mode timestamps are switch-step counts,
// so the same seed gives the same bytes in both files.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace pypto::sim {

class ChromeTraceWriter;

// Event categories (TraceEvent::cat).
inline constexpr const char* kCatOp = "op";                  // compute / local data movement
inline constexpr const char* kCatComm = "comm";              // a pld.* / builtin.* primitive
inline constexpr const char* kCatWait = "wait";              // a signal wait (pld.system.wait)
inline constexpr const char* kCatCollective = "collective";  // a whole-operation collective
inline constexpr const char* kCatCall = "call";              // a function call
inline constexpr const char* kCatTask = "task";              // a dispatched task on a rank
inline constexpr const char* kCatAborted = "aborted";        // an op torn down unfinished

struct TraceEvent {
  int tid = 0;
  std::string name;
  const char* cat = kCatOp;
  int64_t ts = 0, dur = 0;
  uint64_t id = 0;           // unique per run; assigned by Trace::Event unless reserved
  int64_t blocked = 0;       // time a wait spent blocked (ts units)
  int64_t bytes = 0;         // remote bytes this op moved
  int64_t released_by = -1;  // a wait: id of the notify whose write it observed last
  std::string cell;          // a notify or wait: the signal cell, rendered
  std::string where;         // source location "file:line"
};

// Filled by an op's semantics while it runs (Exec::note) and turned into the
// op's TraceEvent by the interpreter.
struct TraceNote {
  bool wait = false;
  int64_t blocked = 0, bytes = 0, released_by = -1;
  uint64_t id = 0;  // reserved by a notify (Trace::NoteNotify)
  std::string cell;
};

struct TraceThread {
  int tid = 0;
  std::string name;
  int device = -1;  // -1 = host
};

class Trace {
 public:
  // json_path "" = no Chrome trace; keep = hold every event for the timeline.
  Trace(const std::string& json_path, bool keep);
  ~Trace();
  bool enabled() const { return enabled_; }
  // Non-empty when the Chrome-trace file cannot be written.
  const std::string& error() const { return error_; }

  void ThreadName(int tid, const std::string& name, int device);
  void Event(TraceEvent ev);
  // A notify about to write `cell`: reserves its event id and remembers it as
  // the cell's latest writer; LastNotify(cell) is what a wait observed.
  uint64_t NoteNotify(const void* cell);
  int64_t LastNotify(const void* cell) const;
  // Ends the Chrome-trace file (also done by the destructor).
  void Close();

  const std::vector<TraceEvent>& events() const { return events_; }
  const std::vector<TraceThread>& threads() const { return threads_; }

 private:
  bool enabled_, keep_;
  std::string error_;
  std::unique_ptr<ChromeTraceWriter> json_;
  mutable std::mutex mu_;
  uint64_t next_id_ = 1;
  std::unordered_map<const void*, uint64_t> last_notify_;
  std::vector<TraceEvent> events_;
  std::vector<TraceThread> threads_;
};

std::string JsonEscape(const std::string& s);

}  // namespace pypto::sim
