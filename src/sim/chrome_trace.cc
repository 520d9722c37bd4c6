// Streaming Chrome trace JSON writer (see chrome_trace.h).
#include "pypto/sim/chrome_trace.h"

#include <fmt/format.h>

#include <algorithm>

namespace pypto::sim {

ChromeTraceWriter::ChromeTraceWriter(const std::string& path) : f_(std::fopen(path.c_str(), "wb")) {
  if (!f_ || std::fputs("{\"traceEvents\": [\n", f_) < 0) failed_ = true;
}

ChromeTraceWriter::~ChromeTraceWriter() { Close(); }

void ChromeTraceWriter::Item(const std::string& json) {
  if (!f_) return;
  if (!first_ && std::fputs(",\n", f_) < 0) failed_ = true;
  first_ = false;
  if (std::fwrite(json.data(), 1, json.size(), f_) != json.size()) failed_ = true;
}

void ChromeTraceWriter::Thread(const TraceThread& t) {
  Item(fmt::format(
      "{{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": {}, \"args\": {{\"name\": "
      "\"{}\"}}}}",
      t.tid, JsonEscape(t.name)));
}

void ChromeTraceWriter::Event(const TraceEvent& e) {
  std::string args = fmt::format("\"id\": {}", e.id);
  if (!e.where.empty()) args += fmt::format(", \"where\": \"{}\"", JsonEscape(e.where));
  if (e.cat == kCatWait) args += fmt::format(", \"blocked\": {}", e.blocked);
  if (e.released_by >= 0) args += fmt::format(", \"released_by\": {}", e.released_by);
  if (e.bytes) args += fmt::format(", \"bytes\": {}", e.bytes);
  if (!e.cell.empty()) args += fmt::format(", \"cell\": \"{}\"", JsonEscape(e.cell));
  Item(fmt::format(
      "{{\"name\": \"{}\", \"cat\": \"{}\", \"ph\": \"X\", \"pid\": 0, \"tid\": {}, \"ts\": {}, "
      "\"dur\": {}, \"args\": {{{}}}}}",
      JsonEscape(e.name), e.cat, e.tid, e.ts, std::max<int64_t>(e.dur, 0), args));
}

void ChromeTraceWriter::Close() {
  if (!f_) return;
  if (std::fputs("\n], \"displayTimeUnit\": \"ns\"}\n", f_) < 0) failed_ = true;
  if (std::fclose(f_) != 0) failed_ = true;
  f_ = nullptr;
}

}  // namespace pypto::sim
