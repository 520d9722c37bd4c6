// malformed_corpus_asan: drives the parser, verifier and printer (built with
// AddressSanitizer + UndefinedBehaviorSanitizer) over hostile inputs:
//   - every file of tests/lit/malformed/, tests/lit/parse_errors/ and
//     tests/lit/hostile/ (bad dims, folded arguments, constant overflow,
//     recursion; each must
//     be rejected WITH at least one diagnostic),
//   - truncations of every tests/lit/roundtrip/ file (plus the other .pir test
//     inputs when the roundtrip corpus is small) at several points,
//   - random byte flips of the same files with a fixed seed,
//   - 10^5-deep nesting (parentheses, brackets, unary minus, long operator
//     chains, nested calls).
// Fails (exit 1) on an internal error exception, a rejection without
// diagnostics, or a hang (SIGALRM per input); sanitizer reports abort the
// process. Deterministic: same inputs, same seed, same order.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/printer.h"
#include "pypto/ir/verifier.h"

namespace fs = std::filesystem;
using namespace pypto;

namespace {

char g_current[512] = "";

void OnAlarm(int) {
  const char msg[] = "malformed_corpus: TIMEOUT (hang) on input: ";
  (void)!write(2, msg, sizeof msg - 1);
  (void)!write(2, g_current, strnlen(g_current, sizeof g_current));
  (void)!write(2, "\n", 1);
  _exit(1);
}

struct Stats {
  int inputs = 0, rejected = 0, accepted = 0, failures = 0;
};

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Parses, verifies and prints one input. `must_reject`: a corpus file that
// exists to be rejected.
void RunOne(const std::string& name, const std::string& text, bool must_reject, Stats& st) {
  std::snprintf(g_current, sizeof g_current, "%s", name.c_str());
  ++st.inputs;
  alarm(20);
  try {
    ir::Context ctx;
    DiagnosticEngine diag(&ctx.sources());
    const ir::Program* p = ir::ParseProgram(ctx, text, name, diag);
    bool ok = p != nullptr;
    if (!ok && !diag.HasErrors()) {
      std::cerr << "FAIL " << name << ": rejected without any diagnostic\n";
      ++st.failures;
    }
    if (p) {
      int before = diag.ErrorCount();
      bool vok = ir::VerifyProgram(ctx, *p, diag);
      if (!vok && diag.ErrorCount() == before) {
        std::cerr << "FAIL " << name << ": verifier failed without any diagnostic\n";
        ++st.failures;
      }
      ok = vok;
      std::string printed = ir::PrintProgram(*p);
      (void)printed;
    }
    std::string rendered = diag.Render();  // exercise rendering of every span
    (void)rendered;
    if (ok) {
      ++st.accepted;
      if (must_reject) {
        std::cerr << "FAIL " << name << ": malformed input accepted without diagnostics\n";
        ++st.failures;
      }
    } else {
      ++st.rejected;
    }
  } catch (const std::exception& e) {
    std::cerr << "FAIL " << name << ": exception: " << e.what() << "\n";
    ++st.failures;
  }
  alarm(0);
}

std::vector<fs::path> FilesUnder(const fs::path& dir, bool only_pir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    if (only_pir && e.path().extension() != ".pir") continue;
    out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

const char* kHeader =
    "import pypto.language as pl\n\n\n@pl.program\nclass Deep:\n"
    "    @pl.function(type=pl.FunctionType.InCore)\n"
    "    def k(self, a: pl.Scalar[pl.INDEX]):\n";

std::string Repeat(const std::string& s, int n) {
  std::string out;
  out.reserve(s.size() * n);
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: malformed_corpus_asan <tests/lit dir> [--quick]\n";
    return 2;
  }
  fs::path lit = argv[1];
  signal(SIGALRM, OnAlarm);
  Stats st;

  // 1. Corpus files that must be rejected with diagnostics.
  for (const char* sub : {"malformed", "parse_errors", "hostile"})
    for (const fs::path& f : FilesUnder(lit / sub, false))
      RunOne(f.string(), ReadFile(f), /*must_reject=*/true, st);

  // 2./3. Truncations and byte flips of well-formed inputs.
  std::vector<fs::path> bases = FilesUnder(lit / "roundtrip", true);
  if (bases.size() < 10) {
    for (const char* sub : {"verifier", "passes", "ops"})
      for (const fs::path& f : FilesUnder(lit / sub, true)) bases.push_back(f);
  }
  std::mt19937 rng(20261130);
  const char kInteresting[] = "\0\t\n\r ()[]{}:,.=#\"'\\@-+*/%<>!~`$\x7f\x80\xff";
  for (const fs::path& f : bases) {
    std::string text = ReadFile(f);
    if (text.empty()) continue;
    size_t n = text.size();
    std::vector<size_t> cuts = {1,         n / 8,     n / 4,     n / 3, n / 2,
                                2 * n / 3, 3 * n / 4, 7 * n / 8, n - 1};
    for (size_t c : cuts)
      if (c > 0 && c < n)
        RunOne(f.string() + "@trunc" + std::to_string(c), text.substr(0, c), false, st);
    for (int k = 0; k < 12; ++k) {
      std::string m = text;
      int flips = 1 + static_cast<int>(rng() % 3);
      for (int j = 0; j < flips; ++j) {
        size_t pos = rng() % m.size();
        m[pos] = (rng() % 2) ? static_cast<char>(rng() & 0xff)
                             : kInteresting[rng() % (sizeof kInteresting - 1)];
      }
      RunOne(f.string() + "@flip" + std::to_string(k), m, false, st);
    }
  }

  // 4. 10^5-deep nesting.
  const int kDeep = 100000;
  std::string h = kHeader;
  RunOne("deep-parens",
         h + "        x = " + Repeat("(", kDeep) + "a" + Repeat(")", kDeep) + "\n        return\n",
         false, st);
  RunOne("deep-brackets",
         h + "        x = " + Repeat("[", kDeep) + "a" + Repeat("]", kDeep) + "\n        return\n",
         false, st);
  RunOne("deep-unary", h + "        x = " + Repeat("-", kDeep) + "a\n        return\n", false, st);
  RunOne("deep-not", h + "        x = " + Repeat("not ", kDeep) + "a\n        return\n", false, st);
  RunOne("long-chain", h + "        x = a" + Repeat(" + a", kDeep) + "\n        return\n", false,
         st);
  RunOne("long-power", h + "        x = a" + Repeat(" ** a", kDeep) + "\n        return\n", false,
         st);
  RunOne("deep-calls",
         h + "        x = " + Repeat("pl.min(a, ", kDeep) + "a" + Repeat(")", kDeep) +
             "\n        return\n",
         false, st);
  RunOne("deep-subscript", h + "        x = a" + Repeat("[0]", kDeep) + "\n        return\n", false,
         st);
  RunOne("unclosed-parens", h + "        x = " + Repeat("(", kDeep) + "\n", false, st);
  RunOne(
      "deep-indent-ifs",
      [&] {
        std::string s = h;
        for (int i = 0; i < 2000; ++i) s += std::string(8 + 4 * i, ' ') + "if a < 1:\n";
        return s + std::string(8 + 4 * 2000, ' ') + "return\n";
      }(),
      false, st);

  std::cout << "malformed_corpus: " << st.inputs << " inputs, " << st.rejected << " rejected, "
            << st.accepted << " accepted, " << st.failures << " failures\n";
  return st.failures == 0 ? 0 : 1;
}
