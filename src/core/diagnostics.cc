// Rendering and storage of user diagnostics (see include/pypto/core/diagnostics.h).
#include "pypto/core/diagnostics.h"

#include <fmt/format.h>

#include "pypto/core/check.h"

namespace pypto {

int32_t SourceManager::AddFile(std::string name, std::string text) {
  auto f = std::make_unique<File>();
  f->name = std::move(name);
  f->text = std::move(text);
  files_.push_back(std::move(f));
  return static_cast<int32_t>(files_.size() - 1);
}

const std::string& SourceManager::FileName(int32_t id) const {
  PYPTO_CHECK(id >= 0 && static_cast<size_t>(id) < files_.size());
  return files_[id]->name;
}

const std::string& SourceManager::FileText(int32_t id) const {
  PYPTO_CHECK(id >= 0 && static_cast<size_t>(id) < files_.size());
  return files_[id]->text;
}

std::string_view SourceManager::Line(int32_t id, int32_t line) const {
  if (id < 0 || static_cast<size_t>(id) >= files_.size()) return {};
  const File& f = *files_[id];
  std::call_once(f.lines_once, [&f] {
    f.line_starts.push_back(0);
    for (size_t i = 0; i < f.text.size(); ++i)
      if (f.text[i] == '\n') f.line_starts.push_back(i + 1);
  });
  if (line < 1 || static_cast<size_t>(line) > f.line_starts.size()) return {};
  size_t b = f.line_starts[line - 1];
  size_t e = f.text.find('\n', b);
  if (e == std::string::npos) e = f.text.size();
  if (e > b && f.text[e - 1] == '\r') --e;
  return std::string_view(f.text).substr(b, e - b);
}

Diagnostic& DiagnosticEngine::Error(Span span, std::string message) {
  ++error_count_;
  if (static_cast<int>(diags_.size()) >= kMaxStored) {
    ++dropped_;
    static thread_local Diagnostic sink;
    sink = Diagnostic{};
    return sink;
  }
  diags_.push_back(Diagnostic{Severity::kError, span, std::move(message), {}});
  return diags_.back();
}

Diagnostic& DiagnosticEngine::Warning(Span span, std::string message) {
  diags_.push_back(Diagnostic{Severity::kWarning, span, std::move(message), {}});
  return diags_.back();
}

void DiagnosticEngine::AddNote(Span span, std::string message) {
  if (diags_.empty()) return;
  diags_.back().notes.push_back({span, std::move(message)});
}

static std::string RenderOne(const SourceManager* sm, Span span, std::string_view sev,
                             std::string_view msg) {
  std::string out;
  if (sm && span.IsKnown()) {
    out +=
        fmt::format("{}:{}:{}: {}: {}\n", sm->FileName(span.file), span.line, span.col, sev, msg);
    std::string_view line = sm->Line(span.file, span.line);
    if (!line.empty()) {
      out.append(line);
      out += '\n';
      std::string caret;
      for (int32_t i = 1; i < span.col && static_cast<size_t>(i - 1) < line.size(); ++i)
        caret += line[i - 1] == '\t' ? '\t' : ' ';
      caret += '^';
      for (int32_t i = 1; i < span.length && i < 200; ++i) caret += '~';
      out += caret;
      out += '\n';
    }
  } else {
    out += fmt::format("{}: {}\n", sev, msg);  // no position: a tool-level error
  }
  return out;
}

std::string DiagnosticEngine::Render(const Diagnostic& d) const {
  std::string_view sev = d.severity == Severity::kError     ? "error"
                         : d.severity == Severity::kWarning ? "warning"
                                                            : "note";
  std::string out = RenderOne(sources_, d.span, sev, d.message);
  for (const auto& n : d.notes) {
    if (n.span.IsKnown())
      out += RenderOne(sources_, n.span, "note", n.message);
    else
      out += fmt::format("note: {}\n", n.message);
  }
  return out;
}

std::string DiagnosticEngine::Render() const {
  std::string out;
  for (const auto& d : diags_) out += Render(d);
  if (dropped_ > 0) out += fmt::format("note: {} more errors not shown\n", dropped_);
  return out;
}

}  // namespace pypto
