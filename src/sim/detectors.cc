// Vector clocks and the happens-before race detector (see detectors.h).
#include "pypto/sim/detectors.h"

#include <algorithm>
#include <iterator>

namespace pypto::sim {

void ClockTick(LogicalThread& t) {
  if (t.clock.size() <= static_cast<size_t>(t.tid)) t.clock.resize(t.tid + 1, 0);
  t.clock[t.tid]++;
}

void ClockJoin(std::vector<uint32_t>& into, const std::vector<uint32_t>& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

static uint32_t ClockOf(const std::vector<uint32_t>& clock, int tid) {
  return static_cast<size_t>(tid) < clock.size() ? clock[tid] : 0;
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

// The run of `runs` that starts at `at`, splitting the run containing it.
RaceDetector::Runs::iterator RaceDetector::Split(Runs& runs, int64_t at) {
  auto it = runs.upper_bound(at);
  auto prev = std::prev(it);
  if (prev->first == at) return prev;
  return runs.emplace_hint(it, at, prev->second);
}

// Merges the runs of [from, to] that equal their left neighbour.
void RaceDetector::Coalesce(Runs& runs, Runs::iterator from, Runs::iterator to) {
  if (from != runs.begin()) --from;
  if (to != runs.end()) ++to;
  for (auto it = std::next(from); it != to;) {
    if (it->second == std::prev(it)->second)
      it = runs.erase(it);
    else
      ++it;
  }
}

void RaceDetector::Access(LogicalThread& t, int alloc, int device, int64_t off, int64_t n,
                          bool write, bool atomic, const std::string& op, Span span) {
  if (!enabled_ || n <= 0) return;
  std::lock_guard<std::mutex> l(mu_);
  if (t.clock.size() <= static_cast<size_t>(t.tid)) ClockTick(t);
  Pending& p = pending_;
  if (p.active && p.tid == t.tid && p.alloc == alloc && p.device == device && p.end == off &&
      p.write == write && p.atomic == atomic && p.clock == t.clock) {
    const Site& s = sites_[p.site];
    if (s.span.line == span.line && s.span.col == span.col && s.span.file == span.file &&
        s.op == op && s.device == t.device && s.thread == t.name) {
      p.end = off + n;
      return;
    }
  }
  FlushLocked();
  p.active = true;
  p.tid = t.tid;
  p.alloc = alloc;
  p.device = device;
  p.off = off;
  p.end = off + n;
  p.write = write;
  p.atomic = atomic;
  p.clock = t.clock;
  p.site = AddSite(t, op, span);
}

void RaceDetector::FlushLocked() {
  Pending& p = pending_;
  if (!p.active) return;
  p.active = false;
  auto& runs = shadow_[{p.alloc, p.device}];
  if (runs.empty()) runs.emplace(0, RunShadow{});
  const int tid = p.tid, site = p.site;
  const uint32_t my = p.clock[tid];
  const bool write = p.write, atomic = p.atomic;
  auto first = Split(runs, p.off);
  auto last = Split(runs, p.end);
  // Every byte of a run has the same state, so checking a run at its first
  // byte finds exactly what checking each of its bytes would (reports are
  // per pair of sites, at the lowest byte).
  for (auto it = first; it != last; ++it) {
    RunShadow& s = it->second;
    int64_t b = it->first;
    const Epoch& w = s.write;
    if (w.tid >= 0 && w.tid != tid && w.clk > ClockOf(p.clock, w.tid) && !(atomic && w.atomic))
      Report(w, true, site, write, p.alloc, p.device, b);
    if (write) {
      for (const Epoch& r : s.reads)
        if (r.tid != tid && r.clk > ClockOf(p.clock, r.tid) && !(atomic && r.atomic))
          Report(r, false, site, true, p.alloc, p.device, b);
      s.write = {tid, my, site, atomic};
      s.reads.clear();
    } else {
      bool found = false;
      for (Epoch& r : s.reads)
        if (r.tid == tid) {
          r = {tid, my, site, atomic};
          found = true;
        }
      if (!found) s.reads.push_back({tid, my, site, atomic});
    }
  }
  Coalesce(runs, first, last);
}

const std::vector<std::string>& RaceDetector::reports() {
  std::lock_guard<std::mutex> l(mu_);
  FlushLocked();
  return reports_;
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
  FlushLocked();
  ClockJoin(cells_[{alloc, device, off}], t.clock);
  ClockTick(t);
}

void RaceDetector::Acquire(LogicalThread& t, int alloc, int device, int64_t off) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> l(mu_);
  FlushLocked();
  auto it = cells_.find({alloc, device, off});
  if (it != cells_.end()) ClockJoin(t.clock, it->second);
  ClockTick(t);
}

}  // namespace pypto::sim
