// pypto-run: run a program (IR text / DSL .py) on P simulated ranks.
//
//   pypto-run FILE --ranks P --input NAME=FILE.npy ... --output-dir DIR
//             [--entry FUNC] [--schedule=parallel|random:SEED] [--deadline SECONDS]
//             [--check-signals] [--detect-races] [--poison=nan] [--trace FILE]
//             [--stats] [--inputs-random=SEED]
//
// Writes DIR/NAME.npy for every Out and InOut parameter of the entry. Exit codes:
// 0 success, 1 user error, 2 usage error, 3 detected deadlock or race.
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "pypto/core/npy.h"
#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/sim/run.h"

using namespace pypto;

static const char* kUsage =
    "usage: pypto-run FILE --ranks P [--input NAME=FILE.npy ...] [--output-dir DIR]\n"
    "                 [--entry FUNC] [--schedule=parallel|random:SEED] [--deadline SECONDS]\n"
    "                 [--check-signals] [--detect-races] [--poison=nan] [--trace FILE]\n"
    "                 [--stats] [--inputs-random=SEED]\n";

static int Usage(const std::string& msg) {
  std::cerr << "pypto-run: error: " << msg << "\n" << kUsage;
  return 2;
}

static bool ParseUInt(const std::string& s, uint64_t* v) {
  if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  *v = std::stoull(s);
  return true;
}

int main(int argc, char** argv) {
  std::string file, out_dir = ".";
  sim::RunOptions opts;
  std::map<std::string, std::string> input_files;
  bool have_ranks = false;
  auto value_of = [&](int& i, const std::string& a, const std::string& flag, std::string* v) {
    if (a == flag) {
      if (i + 1 >= argc) return false;
      *v = argv[++i];
      return true;
    }
    if (a.rfind(flag + "=", 0) == 0) {
      *v = a.substr(flag.size() + 1);
      return true;
    }
    return false;
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i], v;
    if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (value_of(i, a, "--ranks", &v)) {
      uint64_t n;
      if (!ParseUInt(v, &n) || n < 1 || n > 1024)
        return Usage("--ranks expects 1..1024, got '" + v + "'");
      opts.ranks = static_cast<int>(n);
      have_ranks = true;
    } else if (value_of(i, a, "--input", &v)) {
      size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0)
        return Usage("--input expects NAME=FILE.npy, got '" + v + "'");
      input_files[v.substr(0, eq)] = v.substr(eq + 1);
    } else if (value_of(i, a, "--output-dir", &v)) {
      out_dir = v;
    } else if (value_of(i, a, "--entry", &v)) {
      opts.entry = v;
    } else if (value_of(i, a, "--schedule", &v)) {
      std::string err;
      if (!sim::ParseSchedule(v, &opts, &err)) return Usage(err);
    } else if (value_of(i, a, "--deadline", &v)) {
      char* end = nullptr;
      double d = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(d > 0))
        return Usage("--deadline expects a positive number of seconds");
      opts.deadline_s = d;
    } else if (a == "--check-signals") {
      opts.check_signals = true;
    } else if (a == "--detect-races") {
      opts.detect_races = true;
    } else if (value_of(i, a, "--poison", &v)) {
      if (v != "nan") return Usage("--poison supports only 'nan'");
      opts.poison_nan = true;
    } else if (value_of(i, a, "--trace", &v)) {
      opts.trace_path = v;
    } else if (a == "--stats") {
      opts.stats = true;
    } else if (value_of(i, a, "--inputs-random", &v)) {
      if (!ParseUInt(v, &opts.inputs_seed)) return Usage("--inputs-random expects an integer seed");
      opts.inputs_random = true;
    } else if (!a.empty() && a[0] == '-') {
      return Usage("unknown option '" + a + "'");
    } else if (file.empty()) {
      file = a;
    } else {
      return Usage("more than one program file given ('" + file + "' and '" + a + "')");
    }
  }
  if (file.empty()) return Usage("no program file given");
  if (!have_ranks) return Usage("--ranks P is required");

  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << "pypto-run: error: cannot open '" << file << "'\n";
    return 1;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  ir::Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const ir::Program* prog = ir::ParseProgram(ctx, ss.str(), file, diag);
  if (!prog) {
    std::cerr << diag.Render();
    return 1;
  }
  std::map<std::string, sim::HostArray> inputs;
  for (const auto& [name, path] : input_files) {
    NpyArray a;
    std::string err;
    if (!ReadNpyFile(path, &a, &err)) {
      std::cerr << "pypto-run: error: input '" << name << "': " << err << "\n";
      return 1;
    }
    inputs[name] = {a.dtype, a.shape, std::move(a.bytes)};
  }
  sim::RunResult r = sim::RunProgram(ctx, *prog, inputs, opts);
  std::cerr << r.report;
  if (!r.outputs.empty()) {
    mkdir(out_dir.c_str(), 0755);
    for (const auto& [name, arr] : r.outputs) {
      NpyArray a{arr.dtype, arr.shape, arr.bytes};
      std::string err;
      if (!WriteNpyFile(out_dir + "/" + name + ".npy", a, &err)) {
        std::cerr << "pypto-run: error: " << err << "\n";
        return 1;
      }
    }
  }
  return r.exit_code;
}
