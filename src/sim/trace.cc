// Trace: the run's event recorder, fanning out to the Chrome-trace writer and
// the timeline (see trace.h).
#include "pypto/sim/trace.h"

#include <cstdio>

#include "pypto/sim/chrome_trace.h"

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

Trace::Trace(const std::string& json_path, bool keep)
    : enabled_(!json_path.empty() || keep), keep_(keep) {
  if (json_path.empty()) return;
  json_ = std::make_unique<ChromeTraceWriter>(json_path);
  if (!json_->ok()) error_ = "error: cannot write trace '" + json_path + "'";
}

Trace::~Trace() = default;

void Trace::ThreadName(int tid, const std::string& name, int device) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> l(mu_);
  TraceThread t{tid, name, device};
  if (json_) json_->Thread(t);
  if (keep_) threads_.push_back(std::move(t));
}

void Trace::Event(TraceEvent ev) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> l(mu_);
  if (ev.id == 0) ev.id = next_id_++;
  if (json_) json_->Event(ev);
  if (keep_) events_.push_back(std::move(ev));
}

uint64_t Trace::NoteNotify(const void* cell) {
  if (!enabled_) return 0;
  std::lock_guard<std::mutex> l(mu_);
  uint64_t id = next_id_++;
  last_notify_[cell] = id;
  return id;
}

int64_t Trace::LastNotify(const void* cell) const {
  if (!enabled_) return -1;
  std::lock_guard<std::mutex> l(mu_);
  auto it = last_notify_.find(cell);
  return it == last_notify_.end() ? -1 : static_cast<int64_t>(it->second);
}

void Trace::Close() {
  std::lock_guard<std::mutex> l(mu_);
  if (!json_) return;
  json_->Close();
  if (!json_->ok() && error_.empty()) error_ = "error: cannot write trace";
}

}  // namespace pypto::sim
