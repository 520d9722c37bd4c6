// Chrome trace JSON writer (see trace.h).
#include "pypto/sim/trace.h"

#include <algorithm>
#include <cstdio>

namespace pypto::sim {

std::string JsonEscape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '"':
        o += "\\\"";
        break;
      case '\\':
        o += "\\\\";
        break;
      case '\n':
        o += "\\n";
        break;
      case '\t':
        o += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += c;
        }
    }
  }
  return o;
}

void Trace::ThreadName(int tid, const std::string& name) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> l(mu_);
  names_.push_back({tid, name});
}

void Trace::Event(int tid, const std::string& name, const std::string& cat, int64_t ts, int64_t dur,
                  const std::string& args_json) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> l(mu_);
  events_.push_back({tid, name, cat, args_json, ts, dur, seq_++});
}

std::string Trace::ToJson() const {
  std::lock_guard<std::mutex> l(mu_);
  std::vector<Ev> ev = events_;
  std::stable_sort(ev.begin(), ev.end(), [](const Ev& a, const Ev& b) {
    if (a.tid != b.tid) return a.tid < b.tid;
    if (a.ts != b.ts) return a.ts < b.ts;
    return a.seq < b.seq;
  });
  auto names = names_;
  std::sort(names.begin(), names.end());
  std::string o = "{\"traceEvents\": [\n";
  bool first = true;
  auto sep = [&] {
    if (!first) o += ",\n";
    first = false;
  };
  for (const auto& [tid, name] : names) {
    sep();
    o += "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": " + std::to_string(tid) +
         ", \"args\": {\"name\": \"" + JsonEscape(name) + "\"}}";
  }
  for (const Ev& e : ev) {
    sep();
    o += "{\"name\": \"" + JsonEscape(e.name) + "\", \"cat\": \"" + JsonEscape(e.cat) +
         "\", \"ph\": \"X\", \"pid\": 0, \"tid\": " + std::to_string(e.tid) +
         ", \"ts\": " + std::to_string(e.ts) +
         ", \"dur\": " + std::to_string(std::max<int64_t>(e.dur, 0));
    if (!e.args.empty()) o += ", \"args\": {" + e.args + "}";
    o += "}";
  }
  o += "\n], \"displayTimeUnit\": \"ns\"}\n";
  return o;
}

}  // namespace pypto::sim
