// Golden full-module tests of the PTO emitter. Two kinds of inputs:
//   * kernels built in C++ (pto_test_programs.h) -> tests/golden/pto/<case>.pto
//   * IR text files tests/golden/pto/<case>.pir  -> tests/golden/pto/<case>.pto
//     (several modules are concatenated in program order)
// `PYPTO_BLESS=1 unit_pto_golden_test` rewrites every expectation; on a mismatch
// the test prints a unified diff (expected -> actual).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "pto_test_programs.h"
#include "pypto/ir/parser.h"

using namespace pto_test;
namespace fs = std::filesystem;

namespace {

const fs::path kGoldenDir = fs::path(PYPTO_SOURCE_DIR) / "tests" / "golden" / "pto";

bool Blessing() {
  const char* b = std::getenv("PYPTO_BLESS");
  return b && std::string(b) == "1";
}

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string UnifiedDiff(const std::string& want, const std::string& got) {
  fs::path dir = fs::temp_directory_path() / fmt::format("pto_golden_{}", ::getpid());
  fs::create_directories(dir);
  std::ofstream(dir / "expected") << want;
  std::ofstream(dir / "actual") << got;
  std::string cmd = "diff -u " + (dir / "expected").string() + " " + (dir / "actual").string();
  std::string out;
  if (FILE* f = popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    pclose(f);
  }
  fs::remove_all(dir);
  return out;
}

void CheckGolden(const std::string& name, const std::string& got) {
  fs::path p = kGoldenDir / (name + ".pto");
  if (Blessing()) {
    fs::create_directories(kGoldenDir);
    std::ofstream(p, std::ios::binary) << got;
    WARN("blessed " << p.string());
    return;
  }
  INFO("golden file " << p.string() << " (run with PYPTO_BLESS=1 to rewrite)");
  REQUIRE(fs::exists(p));
  std::string want = ReadFile(p);
  INFO(UnifiedDiff(want, got));
  CHECK(want == got);
}

std::string Emit(Context& ctx, const Program* p) {
  DiagnosticEngine diag(&ctx.sources());
  std::vector<codegen::PtoModule> mods;
  bool ok = codegen::EmitPto(ctx, *p, {}, &mods, diag);
  INFO(diag.Render());
  REQUIRE(ok);
  std::string all;
  for (size_t i = 0; i < mods.size(); ++i) all += (i ? "\n" : "") + mods[i].text;
  return all;
}

}  // namespace

TEST_CASE("golden: kernels built in C++", "[pto][golden]") {
  struct Case {
    const char* name;
    const Program* (*make)(Context&);
  };
  const Case cases[] = {
      {"notify_set", [](Context& c) { return NotifyKernel(c); }},
      {"wait_ge", [](Context& c) { return WaitKernel(c); }},
      {"put_single_stage", [](Context& c) { return PutKernel(c); }},
      {"put_ping_pong_atomic_add", [](Context& c) { return PutKernel(c, true, AtomicType::kAdd); }},
      {"get_ping_pong", [](Context& c) { return PutKernel(c, true, AtomicType::kNone, true); }},
      {"remote_store_3d_atomic_add", [](Context& c) { return RemoteStoreKernel(c); }},
      {"remote_load_add_loop", [](Context& c) { return RemoteLoadAddKernel(c); }},
      {"defer_wait", [](Context& c) { return DeferWaitKernel(c); }},
      {"rank_nranks_if", [](Context& c) { return RankKernel(c); }},
      {"group_aic_aiv", [](Context& c) { return GroupProgram(c); }},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      Context ctx;
      CheckGolden(c.name, Emit(ctx, c.make(ctx)));
    }
  }
}

TEST_CASE("golden: IR text inputs", "[pto][golden]") {
  if (!fs::exists(kGoldenDir)) return;
  std::vector<fs::path> inputs;
  for (const auto& e : fs::directory_iterator(kGoldenDir))
    if (e.path().extension() == ".pir") inputs.push_back(e.path());
  std::sort(inputs.begin(), inputs.end());
  for (const fs::path& in : inputs) {
    SECTION(in.filename().string()) {
      Context ctx;
      DiagnosticEngine diag(&ctx.sources());
      const Program* p = ParseProgram(ctx, ReadFile(in), in.filename().string(), diag);
      INFO(diag.Render());
      REQUIRE(p != nullptr);
      CheckGolden(in.stem().string(), Emit(ctx, p));
    }
  }
}
