// pypto-opt: the IR driver. Reads a .pir/.py program, verifies it, runs a pass
// pipeline and prints the resulting IR (or emits PTO MLIR per kernel).
// Exit codes: 0 success; 1 the input (or a pass) reported diagnostics; 2 usage
// errors (unknown flag, missing file, unknown pass or pipeline name).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "pypto/codegen/pto_emitter.h"
#include "pypto/core/check.h"
#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/printer.h"
#include "pypto/ir/verifier.h"
#include "pypto/passes/pass_manager.h"

namespace {

using namespace pypto;

constexpr const char* kUsage =
    "usage: pypto-opt FILE [--passes=a,b | --pipeline=NAME] [--emit=ir|pto] [-o OUT]\n"
    "                 [--verify-each] [--roundtrip-each] [--print-after=NAME]\n"
    "                 [--print-after-all] [--time-passes] [--target=a2a3|a5]\n"
    "       pypto-opt --list-passes | --list-pipelines | --help\n"
    "FILE '-' reads stdin. Output: --emit=ir (the default) writes the IR to -o FILE;\n"
    "--emit=pto writes DIR/<kernel>.pto per module to -o DIR; without -o, either goes\n"
    "to stdout (PTO modules one after another).\n"
    "Exit codes: 0 success; 1 diagnostics (parse, verify, pass or emit errors);\n"
    "2 usage error or unreadable FILE; 3 internal error.\n";

int Usage(const std::string& msg) {
  std::cerr << "pypto-opt: error: " << msg << "\n" << kUsage;
  return 2;
}

void ListPasses() {
  for (const passes::PassInfo& p : passes::AllPasses()) {
    std::cout << p.name << "\n    " << p.summary << "\n    requires: " << p.required.ToString()
              << "; produces: " << p.produced.ToString() << "\n";
  }
}

void ListPipelines() {
  for (const auto& n : passes::PipelineNames()) {
    std::cout << n << ":";
    std::vector<std::string> names = passes::NamedPipeline(n).value_or(std::vector<std::string>{});
    for (const auto& p : names) std::cout << " " << p;
    std::cout << "\n";
  }
}

bool StartsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

int Main(int argc, char** argv) {
  std::string file, passes_text, pipeline_text, emit = "ir", out, target;
  bool have_file = false;
  passes::PassManagerOptions opts;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--list-passes") {
      ListPasses();
      return 0;
    } else if (a == "--list-pipelines") {
      ListPipelines();
      return 0;
    } else if (StartsWith(a, "--passes=")) {
      passes_text = a.substr(9);
      if (passes_text.empty()) return Usage("--passes= needs a comma-separated list of pass names");
    } else if (StartsWith(a, "--pipeline=")) {
      pipeline_text = a.substr(11);
      if (pipeline_text.empty()) return Usage("--pipeline= needs a pipeline name");
    } else if (StartsWith(a, "--emit=")) {
      emit = a.substr(7);
      if (emit != "ir" && emit != "pto")
        return Usage("--emit must be 'ir' or 'pto', got '" + emit + "'");
    } else if (a == "-o") {
      if (i + 1 >= argc) return Usage("-o needs an output path");
      out = argv[++i];
    } else if (StartsWith(a, "-o=")) {
      out = a.substr(3);
    } else if (a == "--verify-each") {
      opts.verify_each = true;
    } else if (a == "--roundtrip-each") {
      opts.roundtrip_each = true;
    } else if (StartsWith(a, "--print-after=")) {
      std::string n = a.substr(14);
      if (!passes::FindPass(n)) return Usage("--print-after: unknown pass '" + n + "'");
      opts.print_after.push_back(n);
    } else if (a == "--print-after-all") {
      opts.print_after_all = true;
    } else if (a == "--time-passes") {
      opts.time_passes = true;
    } else if (StartsWith(a, "--target=")) {
      target = a.substr(9);
      if (target != "a2a3" && target != "a5")
        return Usage("--target must be 'a2a3' or 'a5', got '" + target + "'");
    } else if (a != "-" && StartsWith(a, "-")) {
      return Usage("unknown option '" + a + "'");
    } else {
      if (have_file) return Usage("more than one input file ('" + file + "' and '" + a + "')");
      file = a;
      have_file = true;
    }
  }
  if (!have_file) return Usage("no input file");
  if (!passes_text.empty() && !pipeline_text.empty())
    return Usage("--passes and --pipeline are mutually exclusive");

  std::optional<passes::PipelineSpec> spec;
  std::string pipeline = !passes_text.empty() ? passes_text : pipeline_text;
  if (!pipeline.empty()) {
    std::string err;
    if (!pipeline_text.empty() && !passes::NamedPipeline(pipeline_text)) {
      std::string names;
      for (const auto& n : passes::PipelineNames()) names += (names.empty() ? "" : ", ") + n;
      return Usage("unknown pipeline '" + pipeline_text + "'; valid pipelines: " + names);
    }
    spec = passes::ResolvePipeline(pipeline, &err);
    if (!spec) return Usage(err);
  }

  std::string text;
  std::string display = file;
  if (file == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
    display = "<stdin>";
  } else {
    std::ifstream in(file, std::ios::binary);
    if (!in) return Usage("cannot open input file '" + file + "'");
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }

  ir::Context ctx;
  if (!target.empty()) ctx.target_arch = target;
  DiagnosticEngine diag(&ctx.sources());
  auto fail = [&]() {
    std::cerr << diag.Render();
    return 1;
  };
  // The text is handed over to ctx.sources() (not copied): held once.
  const ir::Program* prog = ir::ParseProgramOwned(ctx, std::move(text), display, diag);
  if (!prog || diag.HasErrors()) return fail();
  if (!ir::VerifyProgram(ctx, *prog, diag) || diag.HasErrors()) return fail();

  if (spec) {
    passes::PropertySet initial = passes::DetectProperties(*prog);
    initial.Add(passes::IRProperty::kTypeChecked);
    std::string err = passes::CheckPipelineProperties(*spec, initial);
    if (!err.empty()) return Usage(err);
    passes::PassManager pm(opts);
    prog = pm.Run(ctx, *prog, *spec, initial, diag);
    if (!prog || diag.HasErrors()) return fail();
  }
  // Warnings (no errors) are still shown.
  if (!diag.diagnostics().empty()) std::cerr << diag.Render();

  if (emit == "ir") {
    // Streamed function by function: the whole text is never one string.
    if (out.empty()) {
      ir::PrintProgramTo(*prog, std::cout);
    } else {
      std::ofstream o(out, std::ios::binary);
      if (!o) return Usage("cannot write output file '" + out + "'");
      ir::PrintProgramTo(*prog, o);
    }
    return 0;
  }
  codegen::PtoOptions po;
  std::vector<codegen::PtoModule> modules;
  DiagnosticEngine ediag(&ctx.sources());
  if (!codegen::EmitPto(ctx, *prog, po, &modules, ediag) || ediag.HasErrors()) {
    std::cerr << ediag.Render();
    return 1;
  }
  if (out.empty()) {
    for (const auto& m : modules) std::cout << m.text;
    return 0;
  }
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) return Usage("cannot create output directory '" + out + "': " + ec.message());
  for (const auto& m : modules) {
    std::ofstream o(std::filesystem::path(out) / (m.name + ".pto"), std::ios::binary);
    if (!o) return Usage("cannot write '" + out + "/" + m.name + ".pto'");
    o << m.text;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Main(argc, argv);
  } catch (const pypto::InternalError& e) {
    std::cerr << e.what() << "\n";
    return 3;
  }
}
