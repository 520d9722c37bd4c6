// User-facing diagnostics: `file:line:col: error: message`, the source line, a
// caret under the column, then notes. Everything the parser, verifier and passes
// find wrong in a user's program is reported here (all errors, not the first);
// internal invariants use PYPTO_CHECK instead.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "pypto/core/span.h"

namespace pypto {

// Owns the text of every source file seen in a session so spans can be rendered.
class SourceManager {
 public:
  // `text` is taken by value: pass std::move(text) to hand a large input over
  // without copying it (ir::ParseProgramOwned does).
  int32_t AddFile(std::string name, std::string text);
  const std::string& FileName(int32_t id) const;
  const std::string& FileText(int32_t id) const;
  // The text of 1-based line `line` without its newline ("" when out of range).
  std::string_view Line(int32_t id, int32_t line) const;

 private:
  struct File {
    std::string name;
    std::string text;
    // Offsets of line starts, built on the first Line() call: only diagnostics
    // need them, and a large input that parses cleanly never pays for them.
    mutable std::once_flag lines_once;
    mutable std::vector<size_t> line_starts;
  };
  std::vector<std::unique_ptr<File>> files_;
};

enum class Severity { kError, kWarning, kNote };

struct Diagnostic {
  Severity severity = Severity::kError;
  Span span;
  std::string message;
  struct Note {
    Span span;
    std::string message;
  };
  std::vector<Note> notes;
};

class DiagnosticEngine {
 public:
  explicit DiagnosticEngine(const SourceManager* sources = nullptr) : sources_(sources) {}

  Diagnostic& Error(Span span, std::string message);
  Diagnostic& Warning(Span span, std::string message);
  void AddNote(Span span, std::string message);  // attaches to the last diagnostic

  bool HasErrors() const { return error_count_ > 0; }
  int ErrorCount() const { return error_count_; }
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }
  void Clear() {
    diags_.clear();
    error_count_ = 0;
  }

  // Where the diagnostics stand; Truncate(c) forgets everything reported since
  // (the parser's fast path undoes an attempt it abandons for the full path).
  struct Checkpoint {
    size_t stored = 0;
    int errors = 0;
    int dropped = 0;
  };
  Checkpoint GetCheckpoint() const { return {diags_.size(), error_count_, dropped_}; }
  void Truncate(const Checkpoint& c) {
    if (diags_.size() > c.stored)
      diags_.erase(diags_.begin() + static_cast<std::ptrdiff_t>(c.stored), diags_.end());
    error_count_ = c.errors;
    dropped_ = c.dropped;
  }

  // Renders every diagnostic in the order reported.
  std::string Render() const;
  std::string Render(const Diagnostic& d) const;
  const SourceManager* sources() const { return sources_; }
  void set_sources(const SourceManager* s) { sources_ = s; }

  // Stop collecting after this many errors (a hostile input must not produce
  // gigabytes of output). Further errors are counted but not stored.
  static constexpr int kMaxStored = 200;

 private:
  const SourceManager* sources_;
  std::vector<Diagnostic> diags_;
  int error_count_ = 0;
  int dropped_ = 0;
};

}  // namespace pypto
