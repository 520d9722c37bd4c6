// pypto._core executor surface: run a Program on P simulated ranks with numpy
// arrays in and out. Arrays are copied into the executor's HostArray (row-major
// bytes) and back; BF16 travels as uint16 arrays holding the upper half of the
// FP32 bit pattern (numpy has no bfloat16), like the executor's .npy files.
// Arrays in a non-native byte order are converted first. The run itself happens
// on a worker thread while the calling thread, every 50 ms, lets Python handle
// signals: Ctrl-C cancels the run (all of its threads are joined) and raises
// KeyboardInterrupt.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <thread>

#include "bindings.h"
#include "numpy_dtype.h"
#include "pypto/sim/run.h"
#include "pypto/sim/session.h"

namespace pypto::bindings {

namespace {

DataType FromNumpy(const py::dtype& d, const std::string& name) {
  if (auto t = DataTypeOfNumpy(d)) return *t;
  RaiseArgumentError("run_program: input '" + name + "' has unsupported numpy dtype " +
                     py::repr(d).cast<std::string>());
}

// `value` as a C-contiguous array in native byte order (a '>f4' array on a
// little-endian host is byte-swapped, never reinterpreted).
py::array NativeArray(const py::handle& value, const std::string& name) {
  auto arr = py::array::ensure(value, py::array::c_style);
  if (!arr) RaiseArgumentError("run_program: input '" + name + "' is not array-like");
  py::object d = arr.dtype();
  if (!d.attr("isnative").cast<bool>()) {
    arr = py::array::ensure(arr.attr("astype")(d.attr("newbyteorder")("=")), py::array::c_style);
    if (!arr) RaiseArgumentError("run_program: input '" + name + "' cannot be byte-swapped");
  }
  return arr;
}

// Runs `run` on a worker thread (the GIL released) while this thread checks
// for Python signals; on one (Ctrl-C) sets *cancel, waits for the run to wind
// down and returns false with the Python error (KeyboardInterrupt) set.
bool RunInterruptibly(const std::function<void()>& run, std::atomic<bool>* cancel) {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false, interrupted = false;
  std::exception_ptr failure;
  {
    py::gil_scoped_release nogil;
    auto body = [&] {
      try {
        run();
      } catch (...) {
        failure = std::current_exception();
      }
      std::lock_guard<std::mutex> l(mu);
      done = true;
      cv.notify_all();
    };
    std::thread worker;
    try {
      worker = std::thread(body);
    } catch (const std::system_error&) {
      body();  // no thread for the run: run it here (not interruptible)
    }
    std::unique_lock<std::mutex> l(mu);
    while (!cv.wait_for(l, std::chrono::milliseconds(50), [&] { return done; })) {
      if (interrupted) continue;
      l.unlock();
      {
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) {
          interrupted = true;
          cancel->store(true);
        }
      }
      l.lock();
    }
    l.unlock();
    if (worker.joinable()) worker.join();
  }
  if (failure) std::rethrow_exception(failure);
  return !interrupted;
}

// The run's inputs as executor host arrays (BF16 names given as uint16 bits).
std::map<std::string, sim::HostArray> ToHostInputs(const py::dict& inputs,
                                                   const py::dict& bf16_inputs) {
  std::map<std::string, sim::HostArray> in;
  for (auto item : inputs) {
    std::string name = py::str(item.first);
    py::array arr = NativeArray(item.second, name);
    sim::HostArray h;
    h.dtype = FromNumpy(arr.dtype(), name);
    if (bf16_inputs.contains(name.c_str())) {
      if (h.dtype != DataType::kUInt16)
        RaiseArgumentError("run_program: bf16 input '" + name +
                           "' must be given as uint16 bit patterns");
      h.dtype = DataType::kBF16;
    }
    for (py::ssize_t i = 0; i < arr.ndim(); ++i) h.shape.push_back(arr.shape(i));
    h.bytes.resize(static_cast<size_t>(arr.nbytes()));
    if (arr.nbytes() > 0) std::memcpy(h.bytes.data(), arr.data(), h.bytes.size());
    in.emplace(std::move(name), std::move(h));
  }
  return in;
}

// Runs `run(opts)` interruptibly (Ctrl-C cancels it) with HOST SubWorker calls
// bridged to `subworker` (when not None); then re-raises a SubWorker's own
// Python exception, raises SimError for a failed run, or returns (outputs, report).
py::tuple RunFromPython(const py::module_& m, sim::RunOptions& opts, const py::object& subworker,
                        const std::function<sim::RunResult(const sim::RunOptions&)>& run) {
  auto pending = std::make_shared<PendingPyError>();
  if (!subworker.is_none()) opts.subworker = MakeSubWorkerBridge(subworker, pending);
  std::atomic<bool> cancel{false};
  opts.cancel = &cancel;
  sim::RunResult res;
  bool finished = RunInterruptibly([&] { res = run(opts); }, &cancel);
  if (!finished) throw py::error_already_set();  // KeyboardInterrupt
  if (pending->error) {
    // The user's exception (with its traceback) from a SubWorker function;
    // the executor's report (where the call was) is its note.
    std::unique_ptr<py::error_already_set> e = std::move(pending->error);
    std::string msg = res.report;
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    e->restore();
    if (!msg.empty()) {
      PyObject *type, *value, *tb;
      PyErr_Fetch(&type, &value, &tb);
      PyErr_NormalizeException(&type, &value, &tb);
      if (value && PyObject_HasAttrString(value, "add_note")) {
        py::handle v(value);
        v.attr("add_note")("pypto: raised in a HOST SubWorker call:\n" + msg);
      }
      PyErr_Restore(type, value, tb);
    }
    throw py::error_already_set();
  }
  if (res.exit_code != 0) {
    std::string msg = res.report;
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    if (msg.empty()) msg = "run failed with exit code " + std::to_string(res.exit_code);
    py::object exc = m.attr("SimError")(msg);
    exc.attr("exit_code") = res.exit_code;
    exc.attr("diagnostics") = py::list();
    PyErr_SetObject(m.attr("SimError").ptr(), exc.ptr());
    throw py::error_already_set();
  }
  py::dict out;
  for (auto& [name, h] : res.outputs) {
    std::vector<py::ssize_t> shape(h.shape.begin(), h.shape.end());
    py::array arr(NumpyDType(h.dtype, Bf16As::kBits), shape);
    if (static_cast<size_t>(arr.nbytes()) != h.bytes.size())
      throw py::value_error("run_program: output '" + name + "' has " +
                            std::to_string(h.bytes.size()) + " bytes for its shape");
    if (!h.bytes.empty()) std::memcpy(arr.mutable_data(), h.bytes.data(), h.bytes.size());
    out[py::str(name)] = arr;
  }
  return py::make_tuple(out, res.report);
}

// RunOptions from the keyword arguments run_program and Session.run share.
sim::RunOptions MakeOptions(int ranks, const std::string& schedule, const std::string& entry,
                            double deadline_s, bool check_signals, bool detect_races,
                            bool poison_nan, const std::string& trace_path, bool stats,
                            bool inputs_random, uint64_t inputs_seed, int64_t memory_limit,
                            bool verify) {
  sim::RunOptions opts;
  if (ranks < 1 || ranks > sim::kMaxRanks)
    RaiseArgumentError("run_program: ranks=" + std::to_string(ranks) + " is out of range (1 .. " +
                       std::to_string(sim::kMaxRanks) + ")");
  opts.ranks = ranks;
  std::string err;
  if (!sim::ParseSchedule(schedule, &opts, &err)) RaiseArgumentError("run_program: " + err);
  if (memory_limit < 0)
    RaiseArgumentError("run_program: memory_limit=" + std::to_string(memory_limit) +
                       " is negative (0 = no limit)");
  opts.memory_limit = memory_limit;
  opts.verify = verify;
  opts.entry = entry;
  opts.deadline_s = deadline_s;
  opts.check_signals = check_signals;
  opts.detect_races = detect_races;
  opts.poison_nan = poison_nan;
  opts.trace_path = trace_path;
  opts.stats = stats;
  opts.inputs_random = inputs_random;
  opts.inputs_seed = inputs_seed;
  return opts;
}

// A sim::Session with the Program handle it runs (kept alive with it).
struct SessionHandle {
  ProgramHandle program;
  std::unique_ptr<sim::Session> session;
};

}  // namespace

void InitSim(py::module_& m) {
  m.def(
      "run_program",
      [m](const ProgramHandle& p, int ranks, const py::dict& inputs, const std::string& schedule,
          const std::string& entry, double deadline_s, bool check_signals, bool detect_races,
          bool poison_nan, const std::string& trace_path, bool stats, bool inputs_random,
          uint64_t inputs_seed, const py::dict& bf16_inputs, int64_t memory_limit, bool verify,
          const py::object& subworker, const std::string& timeline_path, int64_t max_steps,
          bool check_alignment) {
        sim::RunOptions opts =
            MakeOptions(ranks, schedule, entry, deadline_s, check_signals, detect_races, poison_nan,
                        trace_path, stats, inputs_random, inputs_seed, memory_limit, verify);
        if (max_steps < 0)
          RaiseArgumentError("run_program: max_steps=" + std::to_string(max_steps) +
                             " is negative (0 = no bound)");
        opts.max_steps = max_steps;
        opts.check_alignment = check_alignment;
        opts.timeline_path = timeline_path;
        opts.program_name = p.prog->name;
        std::map<std::string, sim::HostArray> in = ToHostInputs(inputs, bf16_inputs);
        return RunFromPython(m, opts, subworker, [&](const sim::RunOptions& o) {
          std::lock_guard<std::mutex> lock(*p.mu);
          return sim::RunProgram(*p.ctx, *p.prog, in, o);
        });
      },
      py::arg("program"), py::arg("ranks"), py::arg("inputs") = py::dict(),
      py::arg("schedule") = "parallel", py::arg("entry") = "", py::arg("deadline_s") = 30.0,
      py::arg("check_signals") = false, py::arg("detect_races") = false,
      py::arg("poison_nan") = false, py::arg("trace_path") = "", py::arg("stats") = false,
      py::arg("inputs_random") = false, py::arg("inputs_seed") = 0,
      py::arg("bf16_inputs") = py::dict(), py::arg("memory_limit") = sim::kDefaultMemoryLimit,
      py::arg("verify") = true, py::arg("subworker") = py::none(), py::arg("timeline_path") = "",
      py::arg("max_steps") = 0, py::arg("check_alignment") = false,
      "Runs a program on `ranks` simulated ranks. inputs: {param name: array} (host tensors "
      "are world-shaped [P, ...]). schedule: \"parallel\", \"random:SEED\" or "
      "\"pct:SEED[:DEPTH[:STEPS]]\". Returns "
      "(outputs {name: ndarray} for every Out/InOut parameter of the entry, report text). "
      "Raises SimError (with exit_code) on deadlock, race, bad inputs or runtime errors. "
      "memory_limit: bytes (0 = none) of windows and host tensors; verify: run the verifier "
      "first; max_steps: bound on loop iterations plus switch points (0 = none); "
      "check_alignment: a GM transfer not starting on a 32-byte boundary is an error. subworker: "
      "dispatcher(name, args) for HOST SubWorker calls (see pypto.runtime). Ctrl-C cancels the "
      "run and raises KeyboardInterrupt.");
  m.def(
      "parse_byte_size",
      [](const std::string& text) {
        int64_t bytes = 0;
        std::string err;
        if (!sim::ParseByteSize(text, &bytes, &err)) RaiseArgumentError(err);
        return bytes;
      },
      py::arg("text"),
      "Bytes of a size spelt like pypto-run's --memory-limit: digits with an optional K, M, G "
      "or T suffix (binary), or 'none' (0).");
  py::class_<SessionHandle>(m, "Session",
                            "Runs of one program on one simulated machine whose windows persist "
                            "across runs (pypto.runtime's prepare(persistent=True)).")
      .def(py::init([](const ProgramHandle& p, int ranks, bool reset_windows, bool poison_nan,
                       int64_t memory_limit) {
             sim::RunOptions o = MakeOptions(ranks, "parallel", "", 30.0, false, false, poison_nan,
                                             "", false, false, 0, memory_limit, true);
             auto h = std::make_unique<SessionHandle>();
             h->program = p;
             h->session = std::make_unique<sim::Session>(*p.ctx, *p.prog, o, reset_windows);
             return h;
           }),
           py::arg("program"), py::arg("ranks"), py::arg("reset_windows") = true,
           py::arg("poison_nan") = false, py::arg("memory_limit") = sim::kDefaultMemoryLimit)
      .def(
          "run",
          [m](SessionHandle& h, const py::dict& inputs, const std::string& schedule,
              const std::string& entry, double deadline_s, bool check_signals, bool detect_races,
              const std::string& trace_path, bool stats, const py::dict& bf16_inputs,
              const py::object& subworker, const std::string& timeline_path) {
            sim::Session& sess = *h.session;
            sim::RunOptions opts =
                MakeOptions(sess.ranks(), schedule, entry, deadline_s, check_signals, detect_races,
                            sess.options().poison_nan, trace_path, stats, false, 0,
                            sess.options().memory_limit, true);
            opts.timeline_path = timeline_path;
            opts.program_name = h.program.prog->name;
            std::map<std::string, sim::HostArray> in = ToHostInputs(inputs, bf16_inputs);
            return RunFromPython(m, opts, subworker, [&](const sim::RunOptions& o) {
              std::lock_guard<std::mutex> lock(*h.program.mu);
              return sess.Run(in, o);
            });
          },
          py::arg("inputs") = py::dict(), py::arg("schedule") = "parallel", py::arg("entry") = "",
          py::arg("deadline_s") = 30.0, py::arg("check_signals") = false,
          py::arg("detect_races") = false, py::arg("trace_path") = "", py::arg("stats") = false,
          py::arg("bf16_inputs") = py::dict(), py::arg("subworker") = py::none(),
          py::arg("timeline_path") = "",
          "One run on the session's machine; returns (outputs, report) like run_program.")
      .def(
          "reset_windows", [](SessionHandle& h) { h.session->ResetWindows(); },
          "Zeroes every window the session holds.")
      .def_property_readonly("runs", [](const SessionHandle& h) { return h.session->runs(); })
      .def_property_readonly("ranks", [](const SessionHandle& h) { return h.session->ranks(); })
      .def_property_readonly("num_windows",
                             [](const SessionHandle& h) { return h.session->NumWindows(); })
      .def_property_readonly("reset_between_runs",
                             [](const SessionHandle& h) { return h.session->reset_windows(); });
  m.attr("MAX_RANKS") = sim::kMaxRanks;
  m.attr("DEFAULT_MEMORY_LIMIT") = sim::kDefaultMemoryLimit;
}

}  // namespace pypto::bindings
