// Renders a run's events as a self-contained HTML timeline (see timeline_html.h).
#include "pypto/sim/timeline_html.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>
#include <unordered_map>

namespace pypto::sim {
namespace {

constexpr double kLabelW = 200, kPlotW = 1100, kRowH = 26, kTop = 34;

std::string Esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

bool IsSpan(const TraceEvent& e) { return e.cat == kCatCall || e.cat == kCatTask; }

// Per-rank totals for the summary table (device -1 = host).
struct RankTotals {
  int64_t ops = 0, compute = 0, comm = 0, waiting = 0, bytes = 0, notifies = 0, waits = 0;
};

class Renderer {
 public:
  explicit Renderer(const TimelineInput& in) : in_(in), ev_(*in.events) {
    std::vector<TraceThread> th = *in.threads;
    std::stable_sort(th.begin(), th.end(), [](const TraceThread& a, const TraceThread& b) {
      return std::tie(a.device, a.tid) < std::tie(b.device, b.tid);
    });
    for (const TraceThread& t : th) {
      row_[t.tid] = static_cast<int>(rows_.size());
      rows_.push_back(t);
    }
    for (const TraceEvent& e : ev_) {
      t1_ = std::max(t1_, e.ts + std::max<int64_t>(e.dur, 0));
      by_id_[e.id] = &e;
      if (e.cat == kCatWait) max_blocked_ = std::max(max_blocked_, e.blocked);
    }
    t0_ = ev_.empty() ? 0 : ev_.front().ts;
    for (const TraceEvent& e : ev_) t0_ = std::min(t0_, e.ts);
    if (t1_ <= t0_) t1_ = t0_ + 1;
    drawn_ = std::min(ev_.size(), kTimelineMaxDrawn);
  }

  std::string Render() {
    std::string o;
    o += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
    o += "<title>pypto-run timeline: " + Esc(in_.title) + "</title>\n";
    o += Style();
    o += "</head><body>\n";
    o += "<h1>pypto-run timeline</h1>\n";
    o += fmt::format(
        "<p class=\"meta\">program <b>{}</b> &middot; {} ranks &middot; schedule {} &middot; time "
        "in {} &middot; {} events</p>\n",
        Esc(in_.title), in_.ranks, Esc(in_.schedule), Esc(in_.time_unit), ev_.size());
    o += "<pre class=\"outcome\">" + Esc(in_.outcome) + "</pre>\n";
    if (drawn_ < ev_.size())
      o += fmt::format(
          "<p class=\"notice\">drawing the first {} of {} events; the summary counts all</p>\n",
          drawn_, ev_.size());
    o += Legend();
    o += Svg();
    o += Summary();
    o += Deadlock();
    o += "</body></html>\n";
    return o;
  }

 private:
  double X(int64_t t) const {
    return kLabelW + static_cast<double>(t - t0_) * kPlotW / static_cast<double>(t1_ - t0_);
  }
  double RowY(int row) const { return kTop + row * kRowH; }
  int RowOf(int tid) const {
    auto it = row_.find(tid);
    return it == row_.end() ? -1 : it->second;
  }
  int DeviceOf(int tid) const {
    int r = RowOf(tid);
    return r < 0 ? -1 : rows_[r].device;
  }

  static std::string Style() {
    return "<style>\n"
           "body{font-family:sans-serif;margin:16px;color:#222}\n"
           "h1{font-size:18px;margin:0 0 6px}\n"
           ".meta{margin:2px 0;font-size:13px}\n"
           ".outcome{background:#f4f4f4;padding:6px;font-size:12px;white-space:pre-wrap}\n"
           ".notice{color:#a40}\n"
           "svg text{font-family:monospace;font-size:11px}\n"
           ".bar.op{fill:#4a7fc1}.bar.comm{fill:#3a9d5d}.bar.collective{fill:#8e5bb5}\n"
           ".bar.wait{fill:#e08a1e}.bar.call,.bar.task{fill:#9aa5b1}\n"
           ".bar.aborted{fill:#c0392b}\n"
           ".group{fill:#8e5bb5;fill-opacity:0.12;stroke:#8e5bb5;stroke-dasharray:3 2}\n"
           ".arrow{stroke:#555;stroke-width:1;fill:none}\n"
           ".blocked{fill:url(#hatch);stroke:#c0392b;stroke-width:1.5}\n"
           ".blocked-label{fill:#c0392b;font-weight:bold}\n"
           ".rowline{stroke:#ddd}.axis{stroke:#888}\n"
           "table{border-collapse:collapse;margin-top:12px;font-size:13px}\n"
           "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}\n"
           "th:first-child,td:first-child,.deadlock td,.deadlock th{text-align:left}\n"
           ".swatch{display:inline-block;width:12px;height:10px;margin:0 4px 0 12px}\n"
           "</style>\n";
  }

  static std::string Legend() {
    std::string o = "<p class=\"legend\">";
    const std::pair<const char*, const char*> items[] = {
        {"#4a7fc1", "compute op"},
        {"#3a9d5d", "communication op"},
        {"#e08a1e", "wait (darker = blocked longer)"},
        {"#8e5bb5", "collective (dashed box = one call across ranks)"},
        {"#9aa5b1", "function / task"},
        {"#c0392b", "blocked at deadlock"}};
    for (const auto& [c, label] : items)
      o += fmt::format("<span class=\"swatch\" style=\"background:{}\"></span>{}", c, label);
    return o + " &middot; arrows: notify &rarr; the wait it released</p>\n";
  }

  std::string Svg() {
    double h = kTop + rows_.size() * kRowH + 8;
    double w = kLabelW + kPlotW + 20;
    std::string o = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
        "viewBox=\"0 0 {:.0f} {:.0f}\">\n",
        w, h, w, h);
    o += "<defs><marker id=\"ah\" markerWidth=\"8\" markerHeight=\"8\" refX=\"7\" refY=\"4\" "
         "orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#555\"/></marker>"
         "<pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
         "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fbe3e0\"/>"
         "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#c0392b\" stroke-width=\"2\"/>"
         "</pattern></defs>\n";
    // Axis with ten ticks.
    o += fmt::format(
        "<line class=\"axis\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>\n", kLabelW,
        kTop - 4, kLabelW + kPlotW, kTop - 4);
    for (int i = 0; i <= 10; ++i) {
      int64_t t = t0_ + (t1_ - t0_) * i / 10;
      o += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", X(t),
                       kTop - 10, t);
    }
    for (size_t r = 0; r < rows_.size(); ++r) {
      double y = RowY(static_cast<int>(r));
      o += fmt::format("<text x=\"4\" y=\"{:.1f}\">{}</text>\n", y + kRowH / 2 + 4,
                       Esc(rows_[r].name));
      o += fmt::format(
          "<line class=\"rowline\" x1=\"0\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>\n",
          y + kRowH, kLabelW + kPlotW, y + kRowH);
    }
    o += Groups();
    for (size_t i = 0; i < drawn_; ++i) o += Bar(ev_[i]);
    o += Arrows();
    o += Blocked();
    o += "</svg>\n";
    return o;
  }

  std::string Bar(const TraceEvent& e) const {
    int row = RowOf(e.tid);
    if (row < 0) return "";
    double x = X(e.ts), w = std::max(X(e.ts + std::max<int64_t>(e.dur, 0)) - x, 1.0);
    double y = RowY(row), bh = IsSpan(e) ? 4 : kRowH - 10, by = IsSpan(e) ? y + kRowH - 5 : y + 3;
    std::string style;
    if (e.cat == kCatWait)
      style = fmt::format(" fill-opacity=\"{:.2f}\"",
                          max_blocked_ > 0 ? 0.25 + 0.75 * static_cast<double>(e.blocked) /
                                                        static_cast<double>(max_blocked_)
                                           : 0.25);
    std::string tip = fmt::format("{} [{}] at {}&#10;start {} duration {}", Esc(e.name), e.cat,
                                  Esc(e.where), e.ts, e.dur);
    if (e.cat == kCatWait) tip += fmt::format("&#10;blocked {}", e.blocked);
    if (e.bytes) tip += fmt::format("&#10;remote bytes {}", e.bytes);
    if (!e.cell.empty()) tip += "&#10;" + Esc(e.cell);
    return fmt::format(
        "<rect class=\"bar {}\" data-id=\"{}\" data-tid=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\" "
        "width=\"{:.1f}\" height=\"{:.1f}\"{}><title>{}</title></rect>\n",
        e.cat, e.id, e.tid, x, by, w, bh, style, tip);
  }

  std::string Arrows() const {
    std::string o;
    for (size_t i = 0; i < drawn_; ++i) {
      const TraceEvent& w = ev_[i];
      if (w.cat != kCatWait || w.released_by < 0) continue;
      auto it = by_id_.find(static_cast<uint64_t>(w.released_by));
      if (it == by_id_.end()) continue;
      const TraceEvent& n = *it->second;
      int rn = RowOf(n.tid), rw = RowOf(w.tid);
      if (rn < 0 || rw < 0) continue;
      o += fmt::format(
          "<line class=\"arrow\" data-from=\"{}\" data-to=\"{}\" x1=\"{:.1f}\" y1=\"{:.1f}\" "
          "x2=\"{:.1f}\" y2=\"{:.1f}\" marker-end=\"url(#ah)\"/>\n",
          n.id, w.id, X(n.ts + n.dur), RowY(rn) + kRowH / 2, X(w.ts + w.dur), RowY(rw) + kRowH / 2);
    }
    return o;
  }

  // One dashed box per whole-operation collective call: the k-th call of the
  // same op at the same source line on every rank.
  std::string Groups() const {
    struct Box {
      std::string name;
      int64_t ts = INT64_MAX, end = INT64_MIN;
      int row0 = INT32_MAX, row1 = -1;
    };
    std::map<std::tuple<std::string, std::string, int64_t>, Box> boxes;
    std::map<std::tuple<int, std::string, std::string>, int64_t> seen;
    for (size_t i = 0; i < drawn_; ++i) {
      const TraceEvent& e = ev_[i];
      if (e.cat != kCatCollective) continue;
      int row = RowOf(e.tid);
      if (row < 0) continue;
      int64_t k = seen[{DeviceOf(e.tid), e.name, e.where}]++;
      Box& b = boxes[{e.name, e.where, k}];
      b.name = e.name;
      b.ts = std::min(b.ts, e.ts);
      b.end = std::max(b.end, e.ts + e.dur);
      b.row0 = std::min(b.row0, row);
      b.row1 = std::max(b.row1, row);
    }
    std::string o;
    for (const auto& [key, b] : boxes) {
      double x = X(b.ts) - 2, w = std::max(X(b.end) - X(b.ts), 1.0) + 4;
      double y = RowY(b.row0) + 1, h = (b.row1 - b.row0 + 1) * kRowH - 2;
      o += fmt::format(
          "<rect class=\"group\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\">"
          "<title>{} at {} (call {})</title></rect>\n",
          x, y, w, h, Esc(b.name), Esc(std::get<1>(key)), std::get<2>(key));
    }
    return o;
  }

  // A deadlock: each blocked thread's unfinished op, from its start to the end.
  std::string Blocked() const {
    std::string o;
    for (const DeadlockedThread& d : in_.deadlocked) {
      int row = RowOf(d.tid);
      if (row < 0) continue;
      int64_t since = t0_;
      for (const TraceEvent& e : ev_)
        if (e.tid == d.tid && (e.cat == kCatAborted || !IsSpan(e)))
          since = e.cat == kCatAborted ? e.ts : std::max(since, e.ts + e.dur);
      double x = X(since), w = std::max(kLabelW + kPlotW - x, 3.0), y = RowY(row);
      std::string label = d.what + (d.condition.empty() ? "" : ": " + d.condition);
      o += fmt::format(
          "<rect class=\"blocked\" data-tid=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" "
          "height=\"{:.1f}\"><title>{} at {}</title></rect>\n",
          d.tid, x, y + 2, w, kRowH - 4, Esc(label), Esc(d.where));
      o += fmt::format("<text class=\"blocked-label\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n",
                       std::min(x + 4, kLabelW + kPlotW - 300), y + kRowH / 2 + 4, Esc(label));
    }
    return o;
  }

  std::string Summary() const {
    std::map<int, RankTotals> tot;
    for (int d = 0; d < in_.ranks; ++d) tot[d];
    for (const TraceEvent& e : ev_) {
      if (IsSpan(e)) continue;
      RankTotals& t = tot[DeviceOf(e.tid)];
      t.ops++;
      t.bytes += e.bytes;
      if (e.cat == kCatAborted) {  // blocked until the run was torn down
        t.waiting += e.dur;
      } else if (e.cat == kCatWait) {
        t.waits++;
        t.waiting += e.blocked;
        t.comm += e.dur - e.blocked;
      } else if (e.cat == kCatOp) {
        t.compute += e.dur;
      } else {
        t.comm += e.dur;
        if (e.cat == kCatComm && !e.cell.empty()) t.notifies++;
      }
    }
    std::string o = fmt::format(
        "<h2>Per-rank summary (time in {})</h2>\n<table class=\"summary\"><tr><th>rank</th>"
        "<th>ops</th><th>computing</th><th>communicating</th><th>waiting (blocked)</th>"
        "<th>remote bytes moved</th><th>notifies</th><th>waits</th></tr>\n",
        Esc(in_.time_unit));
    for (const auto& [d, t] : tot)
      o += fmt::format(
          "<tr class=\"rank\" data-device=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
          "<td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
          d, d < 0 ? "host" : "rank " + std::to_string(d), t.ops, t.compute, t.comm, t.waiting,
          t.bytes, t.notifies, t.waits);
    return o + "</table>\n";
  }

  std::string Deadlock() const {
    if (in_.deadlocked.empty()) return "";
    std::string o =
        "<h2>Deadlock: blocked threads</h2>\n<table class=\"deadlock\"><tr><th>thread</th>"
        "<th>blocked in</th><th>at</th><th>condition</th></tr>\n";
    for (const DeadlockedThread& d : in_.deadlocked)
      o += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", Esc(d.thread),
                       Esc(d.what), Esc(d.where), Esc(d.condition));
    return o + "</table>\n";
  }

  const TimelineInput& in_;
  const std::vector<TraceEvent>& ev_;
  std::vector<TraceThread> rows_;
  std::unordered_map<int, int> row_;
  std::unordered_map<uint64_t, const TraceEvent*> by_id_;
  int64_t t0_ = 0, t1_ = 0, max_blocked_ = 0;
  size_t drawn_ = 0;
};

}  // namespace

std::string RenderTimelineHtml(const TimelineInput& in) { return Renderer(in).Render(); }

}  // namespace pypto::sim
