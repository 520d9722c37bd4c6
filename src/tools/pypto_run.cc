// pypto-run: run a program (IR text / DSL .py) on P simulated ranks.
//
//   pypto-run FILE --ranks P --input NAME=FILE.npy ... --output-dir DIR
//             [--entry FUNC] [--schedule=parallel|random:SEED|pct:SEED[:DEPTH[:STEPS]]]
//             [--sweep N [--keep-going]] [--expect NAME=FILE.npy ...] [--max-steps N]
//             [--deadline SECONDS]
//             [--check-signals] [--check-alignment] [--detect-races] [--poison=nan]
//             [--trace FILE]
//             [--timeline FILE.html]
//             [--stats] [--inputs-random=SEED] [--memory-limit=BYTES]
//             [--transport=inprocess|mpi]
//
// --transport=mpi (started as `mpirun -np P pypto-run FILE --transport=mpi ...`)
// runs one rank per process over MPI-3 RMA: rank 0 reads the input files and
// sends them to every process, rank 0 writes the outputs and prints every
// rank's report (each line prefixed "[rank r] "), and every process exits with
// the worst exit code of any rank.
//
// Verifies the program, runs it, and writes DIR/NAME.npy (DIR defaults to the
// current directory) for every Out and InOut parameter of the entry. Exit
// codes: 0 success, 1 user error, 2 usage error (also a program file that
// cannot be read, as for pypto-opt), 3 detected deadlock or race.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "pypto/core/npy.h"
#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/sim/run.h"
#include "pypto/sim/transport_mpi.h"

using namespace pypto;

// The usage text; the limits come from their one declaration in run.h.
static std::string UsageText() {
  return "usage: pypto-run FILE --ranks P [--input NAME=FILE.npy ...] [--output-dir DIR]\n"
         "                 [--entry FUNC] "
         "[--schedule=parallel|random:SEED|pct:SEED[:DEPTH[:STEPS]]]\n"
         "                 [--sweep N [--keep-going]] [--expect NAME=FILE.npy ...] [--max-steps "
         "N]\n"
         "                 [--deadline SECONDS]\n"
         "                 [--check-signals] [--check-alignment] [--detect-races] [--poison=nan]\n"
         "                 [--trace FILE]\n"
         "                 [--timeline FILE.html] [--stats] [--inputs-random=SEED] "
         "[--memory-limit=BYTES]\n"
         "                 [--transport=inprocess|mpi]\n"
         "Verifies FILE, runs its entry on P simulated ranks (1.." +
         std::to_string(sim::kMaxRanks) +
         ") and writes\n"
         "DIR/NAME.npy for every Out/InOut parameter of the entry; without --output-dir,\n"
         "DIR is the current directory.\n"
         "--memory-limit (digits with an optional K/M/G/T suffix, or 'none'; default " +
         std::to_string(sim::kDefaultMemoryLimit >> 30) +
         "G)\n"
         "bounds the run's windows (all ranks) and host tensors.\n"
         "--schedule: parallel (OS threads), random:SEED (one thread at a time, seeded),\n"
         "pct:SEED[:DEPTH[:STEPS]] (priority schedule with DEPTH-1 change points on switch\n"
         "steps 1..STEPS; default DEPTH " +
         std::to_string(sim::kDefaultPctDepth) + ", STEPS " +
         std::to_string(sim::kDefaultPctSteps) +
         ").\n"
         "--sweep N runs seeds SEED .. SEED+N-1 of a random or pct schedule, stops at the first\n"
         "failing one (a non-zero exit, or outputs that differ from the --expect files, or\n"
         "without --expect from the first seed's) and prints it for replay; --keep-going runs\n"
         "all N and counts the failing ones. --expect NAME=FILE.npy: output NAME must equal\n"
         "FILE (exit 1 otherwise). --max-steps N bounds loop iterations plus switch points.\n"
         "--check-alignment makes a GM transfer (tile load/store, remote load/store, put/get)\n"
         "whose start is not 32-byte aligned an error naming the op, rank, line and address.\n"
         "--trace writes a Chrome trace JSON, streamed while the run goes; --timeline\n"
         "writes a self-contained HTML page of the run (also of a deadlocked one).\n"
         "--transport=mpi runs one rank per process: start it as mpirun -np P pypto-run FILE\n"
         "--transport=mpi ... (--ranks defaults to P; docs/executor.md, \"MPI engine\").\n"
         "Exit codes: 0 success; 1 user error (diagnostics); 2 usage error or unreadable FILE;\n"
         "3 deadlock or race detected.\n";
}

static int Usage(const std::string& msg) {
  std::cerr << "pypto-run: error: " << msg << "\n" << UsageText();
  return 2;
}

static bool ParseUInt(const std::string& s, uint64_t* v) {
  if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  *v = std::stoull(s);
  return true;
}

// Inputs as one byte string (rank 0 reads the files; every process gets them).
static void PutU64(std::vector<uint8_t>& b, uint64_t v) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(&v);
  b.insert(b.end(), p, p + sizeof(v));
}
static uint64_t GetU64(const std::vector<uint8_t>& b, size_t& at) {
  uint64_t v = 0;
  std::memcpy(&v, b.data() + at, sizeof(v));
  at += sizeof(v);
  return v;
}
static std::vector<uint8_t> PackArrays(const std::map<std::string, sim::HostArray>& m) {
  std::vector<uint8_t> b;
  PutU64(b, m.size());
  for (const auto& [name, a] : m) {
    PutU64(b, name.size());
    b.insert(b.end(), name.begin(), name.end());
    PutU64(b, static_cast<uint64_t>(a.dtype));
    PutU64(b, a.shape.size());
    for (int64_t d : a.shape) PutU64(b, static_cast<uint64_t>(d));
    PutU64(b, a.bytes.size());
    b.insert(b.end(), a.bytes.begin(), a.bytes.end());
  }
  return b;
}
static std::map<std::string, sim::HostArray> UnpackArrays(const std::vector<uint8_t>& b) {
  std::map<std::string, sim::HostArray> m;
  size_t at = 0;
  for (uint64_t n = GetU64(b, at); n-- > 0;) {
    size_t len = GetU64(b, at);
    std::string name(b.begin() + at, b.begin() + at + len);
    at += len;
    sim::HostArray a;
    a.dtype = static_cast<DataType>(GetU64(b, at));
    for (uint64_t r = GetU64(b, at); r-- > 0;)
      a.shape.push_back(static_cast<int64_t>(GetU64(b, at)));
    size_t nb = GetU64(b, at);
    a.bytes.assign(b.begin() + at, b.begin() + at + nb);
    at += nb;
    m[name] = std::move(a);
  }
  return m;
}

// The end of a run. In-process: prints the report, returns the code. With a
// transport: rank 0 prints every rank's report in rank order, each line
// prefixed "[rank r] " (a report several ranks share once, "[ranks 0, 2] "),
// and every process returns the worst code of any rank.
static int Finish(sim::Transport* tp, int code, const std::string& report) {
  if (!tp) {
    std::cerr << report;
    return code;
  }
  std::vector<uint8_t> all;
  std::vector<size_t> sizes;
  tp->AllGather(std::vector<uint8_t>(report.begin(), report.end()), &all, &sizes);
  std::vector<int> codes = tp->AgreeStatus(code);
  if (tp->local_rank() == 0) {
    std::vector<std::pair<std::string, std::vector<int>>> groups;
    size_t at = 0;
    for (size_t r = 0; r < sizes.size(); ++r) {
      std::string text(all.begin() + at, all.begin() + at + sizes[r]);
      at += sizes[r];
      if (text.empty()) continue;
      auto g = std::find_if(groups.begin(), groups.end(), [&](auto& e) { return e.first == text; });
      if (g == groups.end())
        groups.push_back({text, {static_cast<int>(r)}});
      else
        g->second.push_back(static_cast<int>(r));
    }
    for (const auto& [text, ranks] : groups) {
      std::string who = ranks.size() == 1 ? "[rank " : "[ranks ";
      for (size_t i = 0; i < ranks.size(); ++i) who += (i ? ", " : "") + std::to_string(ranks[i]);
      who += "] ";
      std::istringstream lines(text);
      for (std::string line; std::getline(lines, line);) std::cerr << who << line << "\n";
    }
  }
  return *std::max_element(codes.begin(), codes.end());
}

int main(int argc, char** argv) {
  std::string file, out_dir = ".";
  sim::RunOptions opts;
  std::map<std::string, std::string> input_files;
  bool have_ranks = false, have_out_dir = false, mpi = false;
  uint64_t sweep = 0;
  bool keep_going = false;
  std::map<std::string, std::string> expect_files;
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
      std::cout << UsageText();
      return 0;
    } else if (value_of(i, a, "--ranks", &v)) {
      uint64_t n;
      if (!ParseUInt(v, &n) || n < 1 || n > static_cast<uint64_t>(sim::kMaxRanks))
        return Usage("--ranks expects 1.." + std::to_string(sim::kMaxRanks) + ", got '" + v + "'");
      opts.ranks = static_cast<int>(n);
      have_ranks = true;
    } else if (value_of(i, a, "--input", &v)) {
      size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0)
        return Usage("--input expects NAME=FILE.npy, got '" + v + "'");
      input_files[v.substr(0, eq)] = v.substr(eq + 1);
    } else if (value_of(i, a, "--output-dir", &v)) {
      out_dir = v;
      have_out_dir = true;
    } else if (value_of(i, a, "--entry", &v)) {
      opts.entry = v;
    } else if (value_of(i, a, "--schedule", &v)) {
      std::string err;
      if (!sim::ParseSchedule(v, &opts, &err)) return Usage(err);
    } else if (value_of(i, a, "--sweep", &v)) {
      if (!ParseUInt(v, &sweep) || sweep < 1 || sweep > 1000000)
        return Usage("--sweep expects a number of seeds 1..1000000, got '" + v + "'");
    } else if (a == "--keep-going") {
      keep_going = true;
    } else if (value_of(i, a, "--expect", &v)) {
      size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0)
        return Usage("--expect expects NAME=FILE.npy, got '" + v + "'");
      expect_files[v.substr(0, eq)] = v.substr(eq + 1);
    } else if (value_of(i, a, "--max-steps", &v)) {
      uint64_t n;
      if (!ParseUInt(v, &n) || n < 1 || n > (uint64_t{1} << 62))
        return Usage("--max-steps expects a positive step count, got '" + v + "'");
      opts.max_steps = static_cast<int64_t>(n);
    } else if (value_of(i, a, "--deadline", &v)) {
      char* end = nullptr;
      double d = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(d > 0))
        return Usage("--deadline expects a positive number of seconds");
      opts.deadline_s = d;
    } else if (a == "--check-signals") {
      opts.check_signals = true;
    } else if (a == "--check-alignment") {
      opts.check_alignment = true;
    } else if (a == "--detect-races") {
      opts.detect_races = true;
    } else if (value_of(i, a, "--poison", &v)) {
      if (v != "nan") return Usage("--poison supports only 'nan'");
      opts.poison_nan = true;
    } else if (value_of(i, a, "--trace", &v)) {
      opts.trace_path = v;
    } else if (value_of(i, a, "--timeline", &v)) {
      opts.timeline_path = v;
    } else if (value_of(i, a, "--memory-limit", &v)) {
      std::string err;
      if (!sim::ParseByteSize(v, &opts.memory_limit, &err)) return Usage("--memory-limit: " + err);
    } else if (a == "--stats") {
      opts.stats = true;
    } else if (value_of(i, a, "--transport", &v)) {
      if (v != "inprocess" && v != "mpi")
        return Usage("--transport expects inprocess or mpi, got '" + v + "'");
      mpi = v == "mpi";
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
  if (!have_ranks && !mpi) return Usage("--ranks P is required");
  if (sweep && opts.schedule == sim::Schedule::kParallel)
    return Usage("--sweep needs --schedule=random:SEED or --schedule=pct:SEED[:DEPTH[:STEPS]]");
  if (sweep && (!opts.trace_path.empty() || !opts.timeline_path.empty()))
    return Usage("--sweep and --trace / --timeline are exclusive");
  if (keep_going && !sweep) return Usage("--keep-going needs --sweep N");

  if (mpi && sweep) return Usage("--sweep needs the in-process engine (--transport=inprocess)");

  // --transport=mpi: this process is one rank; --ranks defaults to the world size.
  std::unique_ptr<sim::Transport> transport;
  if (mpi) {
    std::string err;
    transport = sim::StartMpiTransport(&argc, &argv, &err);
    if (!transport) {
      std::cerr << "pypto-run: error: " << err << "\n";
      return 2;
    }
    if (!have_ranks) opts.ranks = transport->world_size();
    opts.transport = transport.get();
  }
  sim::Transport* tp = transport.get();
  bool reader = !tp || tp->local_rank() == 0;  // reads the input files, writes the outputs

  std::ifstream in(file, std::ios::binary);
  if (!in) {
    if (!tp) return Usage("cannot open input file '" + file + "'");
    return Finish(tp, 2, "pypto-run: error: cannot open input file '" + file + "'\n");
  }
  std::stringstream ss;
  ss << in.rdbuf();
  ir::Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const ir::Program* prog = ir::ParseProgram(ctx, ss.str(), file, diag);
  if (!prog) return Finish(tp, 1, diag.Render());
  std::map<std::string, sim::HostArray> inputs;
  std::string read_error;
  for (const auto& [name, path] : input_files) {
    NpyArray a;
    std::string err;
    if (!reader) break;
    if (!ReadNpyFile(path, &a, &err)) {
      read_error = "pypto-run: error: input '" + name + "': " + err + "\n";
      break;
    }
    inputs[name] = {a.dtype, a.shape, std::move(a.bytes)};
  }
  opts.program_name = std::filesystem::path(file).filename().string();
  std::map<std::string, sim::HostArray> expected;
  for (const auto& [name, path] : expect_files) {
    NpyArray a;
    std::string err;
    if (!reader || !read_error.empty()) break;
    if (!ReadNpyFile(path, &a, &err)) {
      read_error = "pypto-run: error: --expect '" + name + "': " + err + "\n";
      break;
    }
    expected[name] = {a.dtype, a.shape, std::move(a.bytes)};
  }
  if (tp) {  // rank 0's inputs (or its error) to every process
    std::vector<uint8_t> mine, all;
    std::vector<size_t> sizes;
    if (reader) {
      mine = PackArrays(inputs);
      mine.insert(mine.begin(), read_error.empty() ? 0 : 1);
    }
    tp->AllGather(mine, &all, &sizes);
    if (all[0] != 0) return Finish(tp, 1, reader ? read_error : "");
    inputs = UnpackArrays(std::vector<uint8_t>(all.begin() + 1, all.begin() + sizes[0]));
  } else if (!read_error.empty()) {
    std::cerr << read_error;
    return 1;
  }
  // "" when `r` has every expected output with the expected dtype, shape and bytes.
  auto mismatch = [](const sim::RunResult& r, const std::map<std::string, sim::HostArray>& want,
                     const std::string& against) -> std::string {
    for (const auto& [name, arr] : want) {
      auto it = r.outputs.find(name);
      if (it == r.outputs.end()) return "no output '" + name + "' " + against;
      if (it->second.dtype != arr.dtype || it->second.shape != arr.shape ||
          it->second.bytes != arr.bytes)
        return "output '" + name + "' differs from " + against;
    }
    return "";
  };
  sim::RunResult r;
  if (!sweep) {
    r = sim::RunProgram(ctx, *prog, inputs, opts);
    std::string bad = r.exit_code == 0 ? mismatch(r, expected, "the --expect file") : "";
    if (!bad.empty()) return Finish(tp, 1, r.report + "pypto-run: error: " + bad + "\n");
  } else {
    // Seeds SEED .. SEED+N-1: every run must succeed with the expected outputs
    // (without --expect: the first run's).
    sim::RunOptions first = opts;
    uint64_t failures = 0;
    std::string first_failure;
    for (uint64_t k = 0; k < sweep; ++k) {
      sim::RunOptions o = opts;
      o.seed = opts.seed + k;
      o.verify = k == 0;
      sim::RunResult rk = sim::RunProgram(ctx, *prog, inputs, o);
      std::string failed;
      if (rk.exit_code != 0)
        failed = "exit " + std::to_string(rk.exit_code);
      else if (!expected.empty())
        failed = mismatch(rk, expected, "the --expect file");
      else if (k > 0)
        failed = mismatch(rk, r.outputs, "the one under --schedule=" + sim::ScheduleString(first));
      if (!failed.empty()) {
        std::string line = "pypto-run: sweep: --schedule=" + sim::ScheduleString(o) + " failed (" +
                           failed + ", seed " + std::to_string(k + 1) + " of " +
                           std::to_string(sweep) +
                           "); replay it with --schedule=" + sim::ScheduleString(o) + "\n";
        if (!keep_going) {
          std::cerr << rk.report << line;
          return rk.exit_code != 0 ? rk.exit_code : 1;
        }
        if (failures++ == 0) first_failure = rk.report + line;
      }
      if (k == 0) r = std::move(rk);
    }
    opts.seed += sweep - 1;
    std::string range = sim::ScheduleString(first) + " .. " + sim::ScheduleString(opts);
    if (failures) {
      std::cerr << first_failure << "pypto-run: sweep: " << failures << " of " << sweep
                << " schedules failed (" << range << ")\n";
      return 1;
    }
    r.report +=
        "pypto-run: sweep: " + std::to_string(sweep) + " schedules passed (" + range + ")\n";
  }
  if (!r.outputs.empty() && reader) {
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec)
      return Finish(tp, 1,
                    r.report + "pypto-run: error: cannot create output directory '" + out_dir +
                        "': " + ec.message() + "\n");
    std::string written;
    for (const auto& [name, arr] : r.outputs) {
      NpyArray a{arr.dtype, arr.shape, arr.bytes};
      std::string err, path = (std::filesystem::path(out_dir) / (name + ".npy")).string();
      if (!WriteNpyFile(path, a, &err))
        return Finish(tp, 1, r.report + "pypto-run: error: " + err + "\n");
      written += (written.empty() ? "" : ", ") + path;
    }
    r.report += "pypto-run: wrote " + written +
                (have_out_dir ? "" : " (the current directory; --output-dir DIR chooses another)") +
                "\n";
  }
  return Finish(tp, r.exit_code, r.report);
}
