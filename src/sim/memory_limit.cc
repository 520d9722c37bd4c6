// The executor's memory limit: the up-front estimate of a run's allocations and
// the byte-count spelling of `--memory-limit` (see include/pypto/sim/memory_limit.h).
#include "pypto/sim/memory_limit.h"

#include <fmt/format.h>

#include <vector>

#include "pypto/core/checked_int.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/visitor.h"
#include "pypto/ops/ops.h"
#include "pypto/sim/run.h"

namespace pypto::sim {

using namespace ir;

namespace {

void CheckedAdd(int64_t* sum, int64_t x, bool* overflow) {
  if (__builtin_add_overflow(*sum, x, sum)) *overflow = true;
}

// The constant byte size of an alloc_window_buffer call, or -1.
int64_t ConstantWindowBytes(const Call& c) {
  if (c.args.empty()) return -1;
  if (auto* k = As<ConstInt>(c.args[0])) return k->value;
  auto* t = As<MakeTuple>(c.args[0]);
  const Attr* dt = FindAttr(c.kwargs, "dtype");
  if (!t || !dt || dt->kind != Attr::Kind::kDType) return -1;
  std::vector<int64_t> shape;
  for (const Expr* e : t->elements) {
    auto* k = As<ConstInt>(e);
    if (!k || k->value < 0) return -1;
    shape.push_back(k->value);
  }
  return CheckedProduct(shape, DTypeBytes(dt->dtype)).value_or(-1);
}

// Walks the functions reachable from the entry (each once) and adds every
// constant-size window buffer they allocate.
class WindowSites : public IRVisitor {
 public:
  WindowSites(const Program& p, int ranks, MemoryEstimate* est)
      : program_(p), ranks_(ranks), est_(est) {}
  void Walk(const Function& f) {
    for (const Function* seen : seen_)
      if (seen == &f) return;
    seen_.push_back(&f);
    VisitFunction(f);
  }
  void Visit_Call(const Call* c) override {
    if (c->Is(ops::kPldAllocWindowBuffer)) {
      int64_t b = ConstantWindowBytes(*c);
      if (b > 0) est_->AddWindow(b, ranks_);
    }
    IRVisitor::Visit_Call(c);
    if (!c->callee.empty())
      if (const Function* f = program_.Find(c->callee)) Walk(*f);
  }

 private:
  const Program& program_;
  int ranks_;
  MemoryEstimate* est_;
  std::vector<const Function*> seen_;
};

}  // namespace

void MemoryEstimate::AddHost(int64_t bytes) { CheckedAdd(&host_bytes, bytes, &overflow); }

void MemoryEstimate::AddWindow(int64_t bytes_per_rank, int ranks) {
  int64_t all;
  if (__builtin_mul_overflow(bytes_per_rank, int64_t{ranks}, &all)) {
    overflow = true;
    return;
  }
  CheckedAdd(&window_bytes, all, &overflow);
}

bool MemoryEstimate::Exceeds(int64_t limit) const {
  if (limit <= 0) return false;
  int64_t total;
  return overflow || __builtin_add_overflow(host_bytes, window_bytes, &total) || total > limit;
}

std::string MemoryEstimate::Describe(int ranks) const {
  int64_t total;
  if (overflow || __builtin_add_overflow(host_bytes, window_bytes, &total))
    return "more than 2^63 bytes";
  return fmt::format("{} (windows {} on {} rank{}, host tensors {})", FormatBytes(total),
                     FormatBytes(window_bytes), ranks, ranks == 1 ? "" : "s",
                     FormatBytes(host_bytes));
}

void AddConstantWindowSites(const Program& program, const Function& entry, int ranks,
                            MemoryEstimate* est) {
  WindowSites(program, ranks, est).Walk(entry);
}

std::string FormatBytes(int64_t bytes) {
  static const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  double v = static_cast<double>(bytes);
  int u = -1;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  return fmt::format("{:.1f} {} ({} bytes)", v, kUnits[u], bytes);
}

std::string MemoryLimitHint(int64_t limit) {
  return fmt::format(
      "the memory limit is {}; raise it with --memory-limit=BYTES (e.g. 64G; pypto.sim.run: "
      "memory_limit=, RunOptions::memory_limit; 'none' or 0 disables it)",
      FormatBytes(limit));
}

bool ParseByteSize(const std::string& text, int64_t* bytes, std::string* error) {
  if (text == "none") {
    *bytes = 0;
    return true;
  }
  size_t digits = text.find_first_not_of("0123456789");
  std::string num = text.substr(0, digits),
              suffix = digits == std::string::npos ? "" : text.substr(digits);
  int shift = suffix.empty()                   ? 0
              : suffix == "K" || suffix == "k" ? 10
              : suffix == "M" || suffix == "m" ? 20
              : suffix == "G" || suffix == "g" ? 30
              : suffix == "T" || suffix == "t" ? 40
                                               : -1;
  int64_t v = 0;
  bool ok = !num.empty() && shift >= 0;
  for (char c : num)
    if (ok && (__builtin_mul_overflow(v, int64_t{10}, &v) ||
               __builtin_add_overflow(v, int64_t{c - '0'}, &v)))
      ok = false;
  if (ok && shift > 0 && v > (INT64_MAX >> shift)) ok = false;
  if (!ok) {
    *error = "bad byte size '" + text +
             "'; expected digits with an optional K, M, G or T suffix (binary), or 'none'";
    return false;
  }
  *bytes = v << shift;
  return true;
}

}  // namespace pypto::sim
