// Vector clocks and the happens-before race detector (see detectors.h).
#include "pypto/sim/detectors.h"

#include <algorithm>

namespace pypto::sim {

void ClockTick(LogicalThread& t) {
  if (t.clock.size() <= static_cast<size_t>(t.tid)) t.clock.resize(t.tid + 1, 0);
  t.clock[t.tid]++;
}

void ClockJoin(std::vector<uint32_t>& into, const std::vector<uint32_t>& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

static uint32_t ClockOf(const LogicalThread& t, int tid) {
  return static_cast<size_t>(tid) < t.clock.size() ? t.clock[tid] : 0;
}

int RaceDetector::AddSite(LogicalThread& t, const std::string& op, Span span) {
  // Reuse the last site when identical (loops hit the same op many times).
  if (!sites_.empty()) {
    const Site& s = sites_.back();
    if (s.op == op && s.device == t.device && s.thread == t.name && s.span.line == span.line &&
        s.span.file == span.file && s.span.col == span.col)
      return static_cast<int>(sites_.size() - 1);
  }
  sites_.push_back({op, t.device, t.name, span});
  return static_cast<int>(sites_.size() - 1);
}

void RaceDetector::Access(LogicalThread& t, int alloc, int device, int64_t off, int64_t n,
                          bool write, bool atomic, const std::string& op, Span span) {
  if (!enabled_ || n <= 0) return;
  std::lock_guard<std::mutex> l(mu_);
  if (t.clock.size() <= static_cast<size_t>(t.tid)) ClockTick(t);
  auto& sh = shadow_[{alloc, device}];
  if (sh.size() < static_cast<size_t>(off + n)) sh.resize(off + n);
  int site = AddSite(t, op, span);
  uint32_t my = t.clock[t.tid];
  for (int64_t b = off; b < off + n; ++b) {
    ByteShadow& s = sh[b];
    const Epoch& w = s.write;
    if (w.tid >= 0 && w.tid != t.tid && w.clk > ClockOf(t, w.tid) && !(atomic && w.atomic))
      Report(w, true, site, write, alloc, device, b);
    if (write) {
      for (const Epoch& r : s.reads)
        if (r.tid != t.tid && r.clk > ClockOf(t, r.tid) && !(atomic && r.atomic))
          Report(r, false, site, true, alloc, device, b);
      s.write = {t.tid, my, site, atomic};
      s.reads.clear();
    } else {
      bool found = false;
      for (Epoch& r : s.reads)
        if (r.tid == t.tid) {
          r = {t.tid, my, site, atomic};
          found = true;
        }
      if (!found) s.reads.push_back({t.tid, my, site, atomic});
    }
  }
}

void RaceDetector::Report(const Epoch& prev, bool prev_write, int cur_site, bool cur_write,
                          int alloc, int device, int64_t off) {
  if (reported_pairs_.count({prev.site, cur_site})) return;
  reported_pairs_[{prev.site, cur_site}] = true;
  if (reports_.size() >= 10) return;
  auto fmt = [&](const Site& s) {
    std::string who = s.device >= 0 ? "rank " + std::to_string(s.device) : "host";
    return who + " (thread " + s.thread + ") " + s.op + " at " + (fmt_ ? fmt_(s.span) : "?");
  };
  const Site& a = sites_[prev.site];
  const Site& b = sites_[cur_site];
  std::string wname = window_name_ ? window_name_(alloc) : std::to_string(alloc);
  reports_.push_back("error: data race on window '" + wname + "' of rank " +
                     std::to_string(device) + " at byte " + std::to_string(off) + ":\n  " +
                     (prev_write ? "write" : "read") + " by " + fmt(a) + "\n  " +
                     (cur_write ? "write" : "read") + " by " + fmt(b) +
                     "\n  the accesses are not ordered by happens-before (no notify->wait, "
                     "collective or dispatch edge between them)");
}

void RaceDetector::Release(LogicalThread& t, int alloc, int device, int64_t off) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> l(mu_);
  ClockJoin(cells_[{alloc, device, off}], t.clock);
  ClockTick(t);
}

void RaceDetector::Acquire(LogicalThread& t, int alloc, int device, int64_t off) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> l(mu_);
  auto it = cells_.find({alloc, device, off});
  if (it != cells_.end()) ClockJoin(t.clock, it->second);
  ClockTick(t);
}

}  // namespace pypto::sim
