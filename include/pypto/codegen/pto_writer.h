// Indenting text writer for the PTO MLIR emitter. Every line the emitter
// produces goes through one of these (2 spaces per level), so the output layout
// is decided in one place and is identical across runs. Several writers are used
// per function (constants, tensor views, tile allocations, body) and stitched
// together at the end because constants are hoisted above the code using them.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>

namespace pypto::codegen {

class PtoWriter {
 public:
  explicit PtoWriter(int indent = 0) : indent_(indent) {}

  void Line(std::string_view text);
  template <typename... Args>
  void Linef(fmt::format_string<Args...> f, Args&&... args) {
    Line(fmt::format(f, std::forward<Args>(args)...));
  }
  // Appends already-indented text verbatim (used to splice writers together).
  void Raw(std::string_view text) { buf_.append(text); }

  void Indent() { ++indent_; }
  void Dedent() {
    if (indent_ > 0) --indent_;
  }
  int indent() const { return indent_; }

  const std::string& str() const { return buf_; }
  bool empty() const { return buf_.empty(); }

 private:
  std::string buf_;
  int indent_;
};

}  // namespace pypto::codegen
